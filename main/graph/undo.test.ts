import { describe, expect, it } from 'vitest'
import { graphEvents } from '@shared/contract'
import { canvas, useGraph, type GraphFixture } from '../../tests/support/graphFixture'

const setup = useGraph()

/**
 * A small flow with a branch and a merge: root → a → merge ← b ← root, merge → tail,
 * and an unconnected loose node.
 */
function sample(g: GraphFixture) {
  const f = g.flow()
  const root = g.add(f, 'root', [], { response: 'hi', tags: ['start'] })
  const a = g.add(f, 'a', [root])
  const b = g.add(f, 'b', [root])
  const merge = g.add(f, 'merge', [a, b])
  const tail = g.add(f, 'tail', [merge])
  const loose = g.add(f, 'loose')
  return { f, root, a, b, merge, tail, loose }
}

/** Runs the edit, then checks that undo brings back exactly what was there and redo the edit's result. */
function expectUndoable(g: GraphFixture, f: string, label: string, edit: () => unknown): void {
  const before = canvas(g.graph, f)
  edit()
  const after = canvas(g.graph, f)
  expect(after).not.toEqual(before)
  expect(g.graph.undoState(f)).toMatchObject({ can_undo: true, undo_label: label })

  expect(g.graph.undo(f)).toMatchObject({ can_redo: true, redo_label: label })
  expect(canvas(g.graph, f)).toEqual(before)
  g.graph.redo(f)
  expect(canvas(g.graph, f)).toEqual(after)
  g.graph.undo(f)
  expect(canvas(g.graph, f)).toEqual(before)
}

describe('undo and redo', () => {
  it('undoes and redoes adding a node, keeping its id and index', () => {
    const g = setup()
    const { f, merge } = sample(g)
    expectUndoable(g, f, 'add node', () => g.add(f, 'new', [merge]))
  })

  it('undoes and redoes a branch', () => {
    const g = setup()
    const { f, merge } = sample(g)
    expectUndoable(g, f, 'add node', () => g.graph.createBranch({ node_id: merge, prompt: 'other way' }))
  })

  it('undoes and redoes connect, disconnect and reconnect', () => {
    const g = setup()
    const { f, root, a, b, merge, loose } = sample(g)
    expectUndoable(g, f, 'connect', () => g.graph.connect({ flow_id: f, source_id: loose, target_id: merge }))
    expectUndoable(g, f, 'disconnect', () => g.graph.disconnect({ flow_id: f, source_id: root, target_id: b }))
    expectUndoable(g, f, 're-parent', () =>
      g.graph.reconnect({ flow_id: f, source_id: a, target_id: merge, new_source_id: loose, new_target_id: merge }),
    )
  })

  it('undoes and redoes deleting a merge node with reattached children', () => {
    const g = setup()
    const { f, merge } = sample(g)
    expectUndoable(g, f, 'delete node', () => g.graph.deleteNode({ flow_id: f, id: merge }))
  })

  it('undoes and redoes deleting a subtree, with pins, positions, tags and text', () => {
    const g = setup()
    const { f, root, a, tail } = sample(g)
    g.graph.setPinned({ flow_id: f, node_id: tail, pinned: true })
    g.graph.setPositions({ flow_id: f, positions: [{ id: a, position: { x: 10, y: 20 } }] })
    g.graph.updateNode({ id: tail, tags: ['end'], response: 'bye' })
    expectUndoable(g, f, 'delete branch', () => g.graph.deleteNode({ flow_id: f, id: root, mode: 'subtree' }))
  })

  it('undoes and redoes moves and a tidy layout', () => {
    const g = setup()
    const { f, a, b } = sample(g)
    expectUndoable(g, f, 'move', () =>
      g.graph.setPositions({
        flow_id: f,
        positions: [
          { id: a, position: { x: 1, y: 2 } },
          { id: b, position: { x: 3, y: 4 } },
        ],
      }),
    )
    g.graph.setPositions({ flow_id: f, positions: [{ id: a, position: { x: 5, y: 6 } }] })
    expectUndoable(g, f, 'tidy layout', () =>
      g.graph.setPositions({ flow_id: f, positions: [{ id: a, position: null }] }),
    )
  })

  it('undoes and redoes pinning and unpinning', () => {
    const g = setup()
    const { f, b } = sample(g)
    expectUndoable(g, f, 'pin', () => g.graph.setPinned({ flow_id: f, node_id: b, pinned: true }))
    g.graph.setPinned({ flow_id: f, node_id: b, pinned: true })
    expectUndoable(g, f, 'unpin', () => g.graph.setPinned({ flow_id: f, node_id: b, pinned: false }))
  })

  it('undoes and redoes a text, tag and position edit as one step', () => {
    const g = setup()
    const { f, a } = sample(g)
    expectUndoable(g, f, 'edit node', () =>
      g.graph.updateNode({ id: a, prompt: 'new a', response: 'new reply', tags: ['x'], position: { x: 7, y: 8 } }),
    )
  })

  it('puts back a node that another flow holds into this flow only', () => {
    const g = setup()
    const { f, loose } = sample(g)
    const other = g.flow('other')
    g.share(loose, other, { x: 1, y: 1 })
    const otherBefore = canvas(g.graph, other)
    expectUndoable(g, f, 'delete node', () => g.graph.deleteNode({ flow_id: f, id: loose }))
    expect(canvas(g.graph, other)).toEqual(otherBefore)
  })

  it('marks a summary stale again when undo or redo changes its text', () => {
    const g = setup()
    const { f, a, merge } = sample(g)
    g.graph.updateNode({ id: a, prompt: 'new a' })
    g.summarise()
    g.graph.undo(f)
    expect([a, merge].map((id) => g.graph.getNode(id).metadata.summary.updated)).toEqual([true, true])
    g.summarise()
    g.graph.redo(f)
    expect([a, merge].map((id) => g.graph.getNode(id).metadata.summary.updated)).toEqual([true, true])
  })

  it('forgets what was undone once a new edit is made', () => {
    const g = setup()
    const { f, a, loose } = sample(g)
    g.graph.setPinned({ flow_id: f, node_id: a, pinned: true })
    g.graph.undo(f)
    g.graph.connect({ flow_id: f, source_id: a, target_id: loose })
    expect(g.graph.undoState(f)).toEqual({
      can_undo: true,
      can_redo: false,
      undo_label: 'connect',
      redo_label: null,
    })
    const before = canvas(g.graph, f)
    g.graph.redo(f)
    expect(canvas(g.graph, f)).toEqual(before)
  })

  it('keeps one history per flow', () => {
    const g = setup()
    const { f, loose } = sample(g)
    const other = g.flow('other')
    const elsewhere = g.add(other, 'elsewhere')
    g.graph.setPinned({ flow_id: f, node_id: loose, pinned: true })
    g.graph.undo(other)
    expect(g.graph.getFlow(f).nodes.find((m) => m.id === loose)?.pinned).toBe(true)
    expect(g.graph.getFlow(other).nodes).toEqual([])
    expect(g.graph.undo(other)).toMatchObject({ can_undo: false })
    g.graph.redo(other)
    expect(g.graph.getNode(elsewhere).prompt).toBe('elsewhere')
  })

  it('tells the canvas about nodes that come back and text that goes back', async () => {
    const g = setup()
    const { f, merge, tail } = sample(g)
    g.graph.deleteNode({ flow_id: f, id: merge, mode: 'subtree' })
    await g.settled()
    g.events.length = 0
    g.graph.undo(f)
    await g.settled()
    const created = g.events
      .filter((e) => e.event === 'node_created')
      .map((e) => graphEvents.node_created.parse(e.data))
    expect(created.map((c) => c.node.id).sort()).toEqual([merge, tail].sort())
    expect(created.every((c) => c.flow_id === f)).toBe(true)
    expect(g.events.at(-1)?.event).toBe('flow_changed')
    const patch = graphEvents.flow_changed.parse(g.events.at(-1)!.data)
    expect(patch.members.map((m) => m.id)).toContain(merge)

    g.graph.updateNode({ id: tail, prompt: 'changed' })
    g.events.length = 0
    g.graph.undo(f)
    const updated = g.events
      .filter((e) => e.event === 'node_updated')
      .map((e) => graphEvents.node_updated.parse(e.data))
    expect(updated.find((u) => u.node.id === tail)?.node.prompt).toBe('tail')
  })

  it('brings back a reply deleted mid-stream as incomplete, never as a stream nothing finishes', () => {
    const g = setup()
    const { f, merge } = sample(g)
    const cut = g.add(f, 'still answering', [merge])
    g.graph.setReply(cut, { status: 'streaming', response: 'half of' })
    const removed: string[][] = []
    g.graph.onNodesRemoved((ids) => removed.push(ids))
    g.graph.deleteNode({ flow_id: f, id: cut })
    expect(removed).toEqual([[cut]])
    g.graph.undo(f)
    expect(g.graph.getNode(cut)).toMatchObject({ status: 'incomplete', response: 'half of', error: null })
    expect(g.graph.getNode(cut).metadata.summary.updated).toBe(true)
  })

  it('records no undo step for an edit that changes nothing', () => {
    const g = setup()
    const { f, root, a } = sample(g)
    g.graph.setPositions({ flow_id: f, positions: [{ id: a, position: { x: 1, y: 2 } }] })
    const state = g.graph.undoState(f)
    g.graph.updateNode({ id: root, prompt: 'root', response: 'hi', tags: ['start'] })
    g.graph.updateNode({ id: a, position: { x: 1, y: 2 } })
    g.graph.setPositions({ flow_id: f, positions: [{ id: root, position: null }] })
    g.graph.setPinned({ flow_id: f, node_id: a, pinned: false })
    g.graph.connect({ flow_id: f, source_id: root, target_id: a })
    expect(g.graph.undoState(f)).toEqual(state)
  })

  it('does nothing, and says so, when there is nothing to undo or redo', () => {
    const g = setup()
    const f = g.flow()
    const empty = { can_undo: false, can_redo: false, undo_label: null, redo_label: null }
    expect(g.graph.undo(f)).toEqual(empty)
    expect(g.graph.redo(f)).toEqual(empty)
  })
})
