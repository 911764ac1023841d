import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Flow } from '@shared/contract'
import { AppError } from '@shared/errors'
import { EventBus } from '../kernel/events'
import type { FlowShapes } from './flowShapes'
import { GraphService } from './graphService'
import { seededRandom } from '../../tests/support/seededRandom'
import { useTwoConnections } from '../../tests/support/twoConnections'

// A flow announced after an edit (flow_updated) comes from the kept copy brought up to date by
// the change logs. It must always equal the flow read whole from the database: every kind of
// edit, undo and redo, and writes made by another connection (the CLI, the job worker).

const twoConnections = useTwoConnections()

function setup() {
  const { db, other } = twoConnections()
  const bus = new EventBus()
  const graph = new GraphService(db, bus)
  const announced = new Map<string, Flow>()
  bus.listen((event, data) => {
    if (event === 'flow_updated') {
      const { flow } = data as { flow: Flow }
      announced.set(flow.id, flow)
    }
  })
  /** Announces the flow and answers what went out, beside the flow read whole. */
  const announce = async (flowId: string) => {
    graph.announceFlow(flowId)
    await new Promise((resolve) => setImmediate(resolve))
    return { sent: announced.get(flowId)!, fresh: graph.store.flow(flowId)! }
  }
  const shapes = (graph as unknown as { shapes: FlowShapes }).shapes
  return { db, other, graph, announce, shapes }
}

describe('the flows announced after edits', () => {
  it('equal the flow read whole after every kind of edit, undo and redo (400 random edits)', async () => {
    const { graph, announce, shapes } = setup()
    const next = seededRandom(20261125)
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)]
    const flows = [graph.createFlow({ name: 'a' }).id, graph.createFlow({ name: 'b' }).id]
    let turn = 0
    const edits: Array<(flowId: string, flow: Flow) => void> = [
      (f, flow) => {
        const parent = pick(flow.nodes)
        graph.createNode({ flow_id: f, prompt: `turn ${turn++}`, parent_ids: parent ? [parent.id] : [] })
      },
      (f, flow) => {
        const [a, b] = [pick(flow.nodes), pick(flow.nodes)]
        if (a && b) graph.connect({ flow_id: f, source_id: a.id, target_id: b.id })
      },
      (f, flow) => {
        const c = pick(flow.connections)
        if (c) graph.disconnect({ flow_id: f, source_id: c.from, target_id: c.to })
      },
      (f, flow) => {
        const [c, n] = [pick(flow.connections), pick(flow.nodes)]
        if (c && n)
          graph.reconnect({ flow_id: f, source_id: c.from, target_id: c.to, new_source_id: n.id, new_target_id: c.to })
      },
      (f, flow) => {
        const c = pick(flow.connections)
        if (c) graph.nameBranch({ flow_id: f, source_id: c.from, target_id: c.to, name: next() < 0.7 ? 'side' : null })
      },
      (f, flow) => {
        const n = pick(flow.nodes)
        if (n) graph.setPinned({ flow_id: f, node_id: n.id, pinned: !n.pinned })
      },
      (f, flow) => {
        const n = pick(flow.nodes)
        const position = next() < 0.8 ? { x: Math.round(next() * 900), y: Math.round(next() * 900) } : null
        if (n) graph.setPositions({ flow_id: f, positions: [{ id: n.id, position }] })
      },
      (f, flow) => {
        const n = pick(flow.nodes)
        if (n) graph.deleteNode({ id: n.id, flow_id: f, mode: next() < 0.5 ? 'reattach' : 'subtree' })
      },
      (f, flow) => {
        const otherFlow = graph.getFlow(flows.find((id) => id !== f)!)
        const [n, parent] = [pick(otherFlow.nodes), pick(flow.nodes)]
        if (n) graph.addToFlow({ flow_id: f, node_id: n.id, parent_ids: parent ? [parent.id] : [] })
      },
      (f) => graph.undo(f),
      (f) => graph.redo(f),
      (f, flow) => {
        const kept = flow.nodes.filter(() => next() < 0.8).map((n) => n.id)
        if (kept.length > 0 && next() < 0.3) graph.rebuildFlow({ flow_id: f, node_ids: kept })
      },
    ]
    let compared = 0
    for (let i = 0; i < 400; i++) {
      const f = pick(flows)!
      // Early on mostly new turns, so the other edits have something to work on.
      const edit = i < 30 || next() < 0.3 ? edits[0]! : pick(edits)!
      try {
        edit(f, graph.store.flow(f)!)
      } catch (e) {
        if (!(e instanceof AppError)) throw e // a refused edit (a cycle, nothing to undo) changes nothing
      }
      for (const id of flows) {
        const { sent, fresh } = await announce(id)
        expect(sent, `after edit ${i}`).toEqual(fresh)
        compared++
      }
    }
    expect(compared).toBe(800)
    // The kept copies were patched, not read whole each time.
    expect(shapes.stats.patches).toBeGreaterThan(300)
    expect(shapes.stats.reads).toBeLessThan(20)
  }, 60_000)

  it('take in a node and a connection written by another connection (the CLI)', async () => {
    const { other, graph, announce } = setup()
    const f = graph.createFlow({ name: 'a' }).id
    const root = graph.createNode({ flow_id: f, prompt: 'root' }).id
    await announce(f)
    // As `loomverse create-node` would, from its own process.
    const id = randomUUID()
    other
      .transaction(() => {
        other
          .prepare(
            `INSERT INTO nodes (id, timestamp, prompt, response, model) VALUES (?, '2025-01-01T00:00:00.000Z', 'from the cli', '', '')`,
          )
          .run(id)
        other.prepare('INSERT INTO flow_nodes (flow_id, node_id, idx) VALUES (?, ?, 2)').run(f, id)
        other.prepare('INSERT INTO connections (flow_id, source_id, target_id) VALUES (?, ?, ?)').run(f, root, id)
      })
      .immediate()
    const { sent, fresh } = await announce(f)
    expect(sent.nodes.map((n) => n.id)).toEqual([root, id])
    expect(sent.connections).toEqual([{ from: root, to: id }])
    expect(sent).toEqual(fresh)
  })

  it('never change a flow already handed out', async () => {
    const { graph, announce } = setup()
    const f = graph.createFlow({ name: 'a' }).id
    const root = graph.createNode({ flow_id: f, prompt: 'root' }).id
    const { sent: before } = await announce(f)
    const copy = structuredClone(before)
    const child = graph.createNode({ flow_id: f, prompt: 'child', parent_ids: [root] }).id
    graph.setPositions({ flow_id: f, positions: [{ id: root, position: { x: 5, y: 6 } }] })
    const { sent: after } = await announce(f)
    expect(after.nodes.map((n) => n.id)).toEqual([root, child])
    expect(before).toEqual(copy)
  })
})
