import { describe, expect, it } from 'vitest'
import { EventBus } from '../kernel/events'
import type { FlowShapes } from './flowShapes'
import { GraphService } from './graphService'
import { randomGraphEdit } from '../../tests/support/randomGraphEdits'
import { seededRandom } from '../../tests/support/seededRandom'
import { useTwoConnections, writeTurnElsewhere } from '../../tests/support/twoConnections'

// A flow handed out whole (the seed's flow_updated, graph.wholeFlow) comes from the kept copy
// brought up to date by the change logs. It must always equal the flow read whole from the
// database: every kind of edit, undo and redo, and writes made by another connection (the CLI,
// the job worker).

const twoConnections = useTwoConnections()

function setup() {
  const { db, other } = twoConnections()
  const graph = new GraphService(db, new EventBus())
  /** The flow handed out whole, beside the flow read whole. */
  const announce = async (flowId: string) => {
    await new Promise((resolve) => setImmediate(resolve))
    return { sent: graph.wholeFlow(flowId)!, fresh: graph.store.flow(flowId)! }
  }
  const shapes = (graph as unknown as { shapes: FlowShapes }).shapes
  return { db, other, graph, announce, shapes }
}

describe('the whole flows handed out after edits', () => {
  it('equal the flow read whole after every kind of edit, undo and redo (400 random edits)', async () => {
    const { graph, announce, shapes } = setup()
    const next = seededRandom(20261125)
    const flows = [graph.createFlow({ name: 'a' }).id, graph.createFlow({ name: 'b' }).id]
    let compared = 0
    for (let i = 0; i < 400; i++) {
      randomGraphEdit(graph, next, flows, i)
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
    const id = writeTurnElsewhere(other, f, root, 2)
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
