import { describe, expect, it } from 'vitest'
import { graphEvents, type Flow, type FlowPatch } from '@shared/contract'
import { applyFlowPatch } from '@shared/flowPatch'
import { EventBus } from '../kernel/events'
import { GraphService } from './graphService'
import { randomGraphEdit } from '../../tests/support/randomGraphEdits'
import { seededRandom } from '../../tests/support/seededRandom'
import { useTwoConnections, writeTurnElsewhere } from '../../tests/support/twoConnections'

// What the host announces after an edit (flow_changed) is only what changed. A window that
// opened the flow once and applied every announcement since must hold exactly the flow read
// whole from SQLite: after every kind of edit, undo and redo, and writes made by another
// connection (the CLI, the job worker).

const twoConnections = useTwoConnections()

function setup() {
  const { db, other } = twoConnections()
  const bus = new EventBus()
  const graph = new GraphService(db, bus)
  const patches: FlowPatch[] = []
  bus.listen((event, data) => {
    if (event === 'flow_changed') patches.push(graphEvents.flow_changed.parse(data))
  })
  /** Flows as a window holds them: opened once, then kept by the announcements alone. */
  const held = new Map<string, { flow: Flow; version: number }>()
  let reads = 0
  const open = (flowId: string) => {
    const { flow, version } = graph.loadFlow(flowId)
    held.set(flowId, { flow, version })
    reads++
  }
  const settled = async () => {
    await new Promise((resolve) => setImmediate(resolve))
    for (const p of patches.splice(0)) {
      const h = held.get(p.flow_id)
      if (!h) continue
      if (p.whole || p.previous !== h.version) open(p.flow_id)
      else held.set(p.flow_id, { flow: applyFlowPatch(h.flow, p), version: p.version })
    }
  }
  return { other, graph, held, open, settled, patches, reads: () => reads }
}

describe('the changes announced after edits', () => {
  it('applied to the flow as opened, equal the flow read whole after every kind of edit, undo and redo (400 random edits)', async () => {
    const { graph, held, open, settled, reads } = setup()
    const next = seededRandom(20261127)
    const flows = [graph.createFlow({ name: 'a' }).id, graph.createFlow({ name: 'b' }).id]
    for (const f of flows) open(f)
    for (let i = 0; i < 400; i++) {
      randomGraphEdit(graph, next, flows, i)
      await settled()
      for (const f of flows) expect(held.get(f)!.flow, `after edit ${i}`).toEqual(graph.store.flow(f))
    }
    // Never read again: every announcement followed the one before.
    expect(reads()).toBe(2)
  }, 60_000)

  it('carry only what changed: a new turn in a long flow is one member and one connection', async () => {
    const { graph, settled, patches } = setup()
    const f = graph.createFlow({ name: 'long' }).id
    let parent: string | null = null
    for (let i = 0; i < 300; i++)
      parent = graph.createNode({ flow_id: f, prompt: `${i}`, parent_ids: parent ? [parent] : [] }).id
    await new Promise((resolve) => setImmediate(resolve))
    patches.splice(0)
    const id = graph.createNode({ flow_id: f, prompt: 'one more', parent_ids: [parent!] }).id
    await new Promise((resolve) => setImmediate(resolve))
    expect(patches).toHaveLength(1)
    const [patch] = patches
    expect(patch!.members.map((m) => m.id)).toEqual([id])
    expect(patch!.connections).toEqual([{ from: parent, to: id }])
    expect(patch!.removed).toEqual([])
    expect(patch!.summary).toMatchObject({ id: f, node_count: 301 })
    await settled()
  })

  it('take in a node and a connection written by another connection (the CLI)', async () => {
    const { other, graph, held, open, settled } = setup()
    const f = graph.createFlow({ name: 'a' }).id
    const root = graph.createNode({ flow_id: f, prompt: 'root' }).id
    await settled()
    open(f)
    const id = writeTurnElsewhere(other, f, root, 2)
    graph.announceFlow(f)
    await settled()
    expect(held.get(f)!.flow.connections).toEqual([{ from: root, to: id }])
    expect(held.get(f)!.flow).toEqual(graph.store.flow(f))
  })

  it('name the version they follow, so a window that missed one reads the flow again', async () => {
    const { graph, patches } = setup()
    const f = graph.createFlow({ name: 'a' }).id
    const opened = graph.loadFlow(f).version
    graph.createNode({ flow_id: f, prompt: 'one' })
    await new Promise((resolve) => setImmediate(resolve))
    graph.createNode({ flow_id: f, prompt: 'two' })
    await new Promise((resolve) => setImmediate(resolve))
    const [first, second] = patches.filter((p) => p.flow_id === f).slice(-2)
    expect(first!.previous).toBe(opened)
    expect(second!.previous).toBe(first!.version)
    expect(graph.loadFlow(f).version).toBe(second!.version)
  })

  it('announce a restored flow whole', async () => {
    const { graph, patches } = setup()
    const f = graph.createFlow({ name: 'a' }).id
    graph.createNode({ flow_id: f, prompt: 'one' })
    graph.trashFlow(f)
    await new Promise((resolve) => setImmediate(resolve))
    patches.splice(0)
    graph.restoreFlow(f)
    await new Promise((resolve) => setImmediate(resolve))
    expect(patches).toMatchObject([{ flow_id: f, whole: true, summary: { id: f } }])
  })
})
