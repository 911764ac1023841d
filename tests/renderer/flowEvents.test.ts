import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createAppStore, type AppStore } from '../../renderer/src/store'
import { fakeClient, memoryStorage, type FakeClient } from './support/fakeClient'
import { pathTo } from '../../renderer/src/store/graphSlice'
import { FLOW_OPEN_WHOLE_MAX, type FlowPage } from '@shared/contract'
import { generateFlow } from '../../bench/graphFixture'
import type { Core } from '../../main/core'
import { randomGraphEdit } from '../support/randomGraphEdits'
import { seededRandom } from '../support/seededRandom'
import { useLlmCore, type LlmHarness } from '../support/llmCore'

// The renderer's store keeps the open flow by the host's events alone (flow_changed, node events,
// streamed text). After any sequence of edits — chat turns streaming from a model over HTTP,
// retries, edits of a prompt, re-parents, merges, deletes, undo and redo — it must hold what a
// store that opens the flow afresh holds: the store is held to the host's full reload.

const start = useLlmCore()

beforeAll(() => {
  vi.stubGlobal('localStorage', memoryStorage())
})

/** The renderer's bridge to a core in this process: calls through the router, events as a socket delivers them (copied, in order). */
function coreClient(core: Core): FakeClient {
  const fake = fakeClient(async (method, input) =>
    structuredClone(await core.router.call(method, input, { transport: 'ws' })),
  )
  core.bus.listen((event, data) => fake.emit(event, structuredClone(data)))
  return fake
}

/** What a window shows of the open flow, and the conversation list. */
function shown(store: AppStore) {
  const s = store.getState()
  const ids = new Set(s.flow?.nodes.map((m) => m.id))
  return {
    flow: s.flow,
    version: s.flowVersion,
    members: s.members,
    parentIds: [...s.parentIds].sort(),
    merges: s.merges,
    // Content of every card of the flow (a card of a node no longer in it is not shown).
    nodes: Object.fromEntries(Object.entries(s.nodes).filter(([id]) => ids.has(id))),
    flows: s.flows,
  }
}

/** A chat turn, or a retry, answered by the fake model in chunks; resolves once the reply has landed. */
async function chatTurn(h: LlmHarness, step: number, input: Record<string, unknown>, method: string) {
  h.fake.script({ provider: 'openai', times: 1, reply: `Reply ${step}`, chunks: [`Reply `, `${step}`] })
  const done = h.next('chat_status', (d) => d.state === 'done' || d.state === 'failed')
  await h.call(method, input)
  await done
}

/** Until what is due has gone out: the announcement, the last node events. */
async function settled(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe("the renderer's store kept by events", () => {
  it('holds the flow a full reload reads, after 120 random edits with chat turns streaming', async () => {
    const h = await start()
    const { client, calls } = coreClient(h.core)
    const live = createAppStore(client)
    const graph = h.core.graph
    const a = graph.createFlow({ name: 'a' }).id
    const b = graph.createFlow({ name: 'b' }).id
    await live.getState().loadFlows()
    await live.getState().openFlow(a)
    const next = seededRandom(20261127)
    const reads = () => calls.filter((c) => c.method === 'open_flow' || c.method === 'load_flow').length

    for (let step = 0; step < 120; step++) {
      const nodes = graph.store.flow(a)!.nodes
      const any = nodes[Math.floor(next() * nodes.length)]
      const roll = next()
      if (roll < 0.25) {
        await chatTurn(
          h,
          step,
          { flow_id: a, prompt: `Turn ${step}`, ...(any ? { parent_id: any.id } : {}) },
          'chat_send',
        )
      } else if (roll < 0.35 && any) {
        await chatTurn(h, step, { node_id: any.id, flow_id: a }, 'chat_retry')
      } else randomGraphEdit(graph, next, [a, b], step)
      await settled()

      const fresh = createAppStore(client)
      await fresh.getState().loadFlows()
      await fresh.getState().openFlow(a)
      expect(shown(live), `after step ${step}`).toEqual(shown(fresh))
      const s = live.getState()
      // The highlighted path follows the edits too.
      expect(s.activeIds, `after step ${step}`).toEqual(s.selectedId ? pathTo(s.flow!, s.selectedId) : new Set())
    }
    // The live store's open and the fresh stores' opens only: the live one never read the flow again.
    expect(reads()).toBe(121)
  }, 120_000)

  it('opens a big flow around its newest turn, and holds the flow a full reload reads once its pages are in, with edits landing between and across them', async () => {
    const h = await start()
    const graph = h.core.graph
    const big = generateFlow(graph, FLOW_OPEN_WHOLE_MAX + 900, { name: 'big', positioned: true })
    const next = seededRandom(20261128)
    let page = 0
    // Between pages the flow changes: before a page is read (the page holds the edit), or after it
    // is read and before it is answered (the page comes after the edit's announcement and must
    // not undo it).
    const fake = fakeClient(async (method, input) => {
      if (method !== 'load_flow_page')
        return structuredClone(await h.core.router.call(method, input, { transport: 'ws' }))
      const editFirst = page++ % 2 === 0
      if (editFirst) randomGraphEdit(graph, next, [big.id], page)
      const answer = structuredClone(
        await h.core.router.call(method, { ...(input as object), limit: 400 }, { transport: 'ws' }),
      )
      if (!editFirst) {
        // An edit of a card this very page holds, as it stood when read: moved, or deleted.
        const { members } = (answer as { value: FlowPage }).value
        const target = members[Math.floor(next() * members.length)]!
        if (page % 4 === 1) graph.deleteNode({ flow_id: big.id, id: target.id, mode: 'reattach' })
        else
          graph.setPositions({ flow_id: big.id, positions: [{ id: target.id, position: { x: -900, y: page * 10 } }] })
      }
      await settled()
      return answer
    })
    h.core.bus.listen((event, data) => fake.emit(event, structuredClone(data)))
    const live = createAppStore(fake.client)
    await live.getState().loadFlows()
    await live.getState().openFlow(big.id)
    // At first only the part around the newest turn, with its content.
    const first = live.getState()
    expect(first.flowLoading).not.toBeNull()
    expect(first.flow!.nodes.length).toBeLessThan(200)
    expect(first.nodes[big.nodeIds.at(-1)!]?.prompt).toContain(`Turn ${FLOW_OPEN_WHOLE_MAX + 899}`)
    await vi.waitFor(() => expect(live.getState().flowLoading).toBeNull(), { timeout: 60_000, interval: 20 })
    expect(page).toBeGreaterThan(5)
    await settled()

    const whole = createAppStore(coreClient(h.core).client)
    await whole.getState().loadFlows()
    await whole.getState().openFlow(big.id)
    await vi.waitFor(() => expect(whole.getState().flowLoading).toBeNull(), { timeout: 60_000, interval: 20 })
    const { nodes: _live, ...liveShape } = shown(live)
    const { nodes: _whole, ...wholeShape } = shown(whole)
    expect(liveShape).toEqual(wholeShape)
    expect(live.getState().flow).toEqual(graph.store.flow(big.id))
    // The content held is the host's, and any other card's comes when asked for.
    for (const [id, node] of Object.entries(_live)) expect(node).toEqual(graph.getNode(id))
    const far = big.nodeIds[3]!
    expect(live.getState().nodes[far]).toBeUndefined()
    live.getState().wantContent([far])
    await vi.waitFor(() => expect(live.getState().nodes[far]).toEqual(graph.getNode(far)), { timeout: 10_000 })
  }, 180_000)
})
