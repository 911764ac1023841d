// A conversation of thousands of turns, as users keep with a companion. Prints JSON lines:
// - graph.long_create_node: one more turn (create_node answered) at the end of the chain;
// - graph.long_build_context: the next prompt's context below the newest turn, turn by turn
//   (the first prompt after the 20,000 writes apart);
// - graph.long_build_context_cold: the first prompt's context after the app starts again, with the
//   flow opened by a window first and without;
// - graph.long_chat_first_delta: a chat turn (chat_send, a persona's flow, the fake LLM over HTTP)
//   to its first streamed text, after 100 turns and after all of them: what the length of the
//   conversation adds to every turn is the difference.
// Each call is followed by a turn of the event loop, so the flow's announcement (flow_updated,
// sent after the work of a turn) runs between calls as it would in the app, and is timed apart.
// Run with `npm run bench:long` (`-- --turns N`).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startCore } from '../../main/core'
import { callerOf, chatTurn, percentile, startOutside } from '../support'

const { values } = parseArgs({ options: { turns: { type: 'string', default: '5000' } } })
const turns = Number(values.turns)
if (!Number.isInteger(turns) || turns < 100) throw new Error(`--turns must be an integer ≥ 100, got "${values.turns}"`)

const nextTurnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve))

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-long-'))
// The fake LLM runs on a thread of its own, as a model server is another process for a user.
const outside = await startOutside()
const core = startCore({ home, mode: 'browser', log: () => {}, env: outside.env })
let disposed = false
try {
  const call = callerOf(core)
  const persona = await call<{ id: string }>('create_persona', { name: 'Companion' })
  const flow = await call<{ id: string }>('create_flow', { name: 'long', persona_id: persona.id })
  let parent: string | null = null
  const created: number[] = []
  const announced: number[] = []
  /** 20 chat turns below the newest node; their milliseconds to the first streamed text. */
  const chatTurns = async (): Promise<number[]> => {
    const ms: number[] = []
    for (let i = 0; i < 20; i++) {
      const turn = await chatTurn(core, {
        flow_id: flow.id,
        prompt: `And the roses, ${i}?`,
        persona_id: persona.id,
        parent_id: parent,
      })
      ms.push(turn.firstMs)
      parent = turn.nodeId
    }
    return ms
  }
  let early: number[] = []
  for (let i = 0; i < turns; i++) {
    if (i === 100) early = await chatTurns()
    const t0 = performance.now()
    const node: { id: string } = await call('create_node', {
      flow_id: flow.id,
      prompt: `Turn ${i}: what did we say about the garden?`,
      response: `Reply ${i}: the tomatoes, the fence and the old apple tree.`,
      ...(parent ? { parent_ids: [parent] } : {}),
    })
    const t1 = performance.now()
    await nextTurnOfTheLoop()
    if (i >= turns - 100) {
      created.push(t1 - t0)
      announced.push(performance.now() - t1)
    }
    parent = node.id
  }
  // The first prompt after 20,000 writes no prompt saw pays for them once (what is kept
  // catches up with the change logs; the word lists of memory's first pack load): timed apart.
  let t0 = performance.now()
  await call('build_context', { flow_id: flow.id, parent_ids: [parent], prompt: 'And the roses?' })
  const first = performance.now() - t0
  // Then turn by turn: a new turn, and the next prompt's context below it.
  const context: number[] = []
  for (let i = 0; i < 20; i++) {
    const node: { id: string } = await call('create_node', {
      flow_id: flow.id,
      prompt: `Turn ${turns + i}: and the roses?`,
      response: `Reply ${turns + i}: pruned in March.`,
      parent_ids: [parent],
    })
    parent = node.id
    await nextTurnOfTheLoop()
    t0 = performance.now()
    await call('build_context', { flow_id: flow.id, parent_ids: [parent], prompt: 'And the roses?' })
    context.push(performance.now() - t0)
  }
  console.log(
    JSON.stringify({
      bench: 'graph.long_create_node',
      turns,
      p50_ms: percentile(created, 50),
      p95_ms: percentile(created, 95),
      // Reading and sending the whole flow to the windows, after the call has been answered.
      announce_p50_ms: percentile(announced, 50),
    }),
  )
  console.log(
    JSON.stringify({
      bench: 'graph.long_build_context',
      turns,
      first_ms: Math.round(first * 100) / 100,
      p50_ms: percentile(context, 50),
      p95_ms: percentile(context, 95),
    }),
  )
  const late = await chatTurns()
  // The app opened afresh on the same conversation, nothing kept yet: the first prompt's
  // context, once as a window sends it (the flow opened first, as a window opens it) and once as
  // a program on the API does (no window opened it: the path is read from the database).
  await core.dispose()
  disposed = true
  const cold: Record<string, number> = {}
  for (const opened of [true, false]) {
    const reopened = startCore({ home, mode: 'browser', log: () => {}, env: outside.env })
    try {
      const again = callerOf(reopened)
      let t = performance.now()
      if (opened) {
        await again('load_flow', { id: flow.id })
        cold.open_flow_ms = performance.now() - t
        t = performance.now()
      }
      await again('build_context', { flow_id: flow.id, parent_ids: [parent], prompt: 'And the roses?' })
      cold[opened ? 'first_after_open_ms' : 'first_without_window_ms'] = performance.now() - t
    } finally {
      await reopened.dispose()
    }
  }
  const rounded = Object.fromEntries(Object.entries(cold).map(([k, v]) => [k, Math.round(v * 100) / 100]))
  console.log(JSON.stringify({ bench: 'graph.long_build_context_cold', turns, ...rounded }))
  console.log(
    JSON.stringify({
      bench: 'graph.long_chat_first_delta',
      turns,
      at_100_turns_p50_ms: percentile(early, 50),
      at_100_turns_p95_ms: percentile(early, 95),
      [`at_${turns}_turns_p50_ms`]: percentile(late, 50),
      [`at_${turns}_turns_p95_ms`]: percentile(late, 95),
    }),
  )
} finally {
  if (!disposed) await core.dispose()
  outside.close()
  rmSync(home, { recursive: true, force: true })
}
