// A conversation of thousands of turns, as users keep with a companion. Prints JSON lines:
// - graph.long_create_node: one more turn (create_node answered) at the end of the chain;
// - graph.long_build_context: the next prompt's context below the newest turn.
// Each call is followed by a turn of the event loop, so the flow's announcement (flow_updated,
// sent after the work of a turn) runs between calls as it would in the app, and is timed apart.
// Run with `npm run bench:long` (`-- --turns N`).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startCore } from '../../main/core'
import { callerOf, percentile } from '../support'

const { values } = parseArgs({ options: { turns: { type: 'string', default: '5000' } } })
const turns = Number(values.turns)
if (!Number.isInteger(turns) || turns < 100) throw new Error(`--turns must be an integer ≥ 100, got "${values.turns}"`)

const nextTurnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve))

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-long-'))
const core = startCore({ home, mode: 'browser', log: () => {} })
try {
  const call = callerOf(core)
  const flow = await call<{ id: string }>('create_flow', { name: 'long' })
  let parent: string | null = null
  const created: number[] = []
  const announced: number[] = []
  for (let i = 0; i < turns; i++) {
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
  const context: number[] = []
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now()
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
      p50_ms: percentile(context, 50),
      p95_ms: percentile(context, 95),
    }),
  )
} finally {
  await core.dispose()
  rmSync(home, { recursive: true, force: true })
}
