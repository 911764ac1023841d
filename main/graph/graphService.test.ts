import { describe, expect, it } from 'vitest'
import { graphEvents } from '@shared/contract'
import { edges, errorCode, useGraph, type GraphFixture } from '../../tests/support/graphFixture'

const setup = useGraph()

function stale(g: GraphFixture, ids: string[]): boolean[] {
  return ids.map((id) => g.graph.getNode(id).metadata.summary.updated)
}

describe('creating nodes and branches', () => {
  it('creates a node under its parents, with its prompt, response, model and tags', () => {
    const g = setup()
    const f = g.flow()
    const root = g.add(f, 'root')
    const node = g.graph.createNode({
      flow_id: f,
      prompt: 'Where is Kyoto?',
      response: 'In Japan.',
      parent_ids: [root],
      model: 'gpt-test',
      tags: ['travel'],
    })
    expect(node).toMatchObject({ prompt: 'Where is Kyoto?', response: 'In Japan.', status: 'complete' })
    expect(node.metadata).toMatchObject({ model: 'gpt-test', tags: ['travel'] })
    expect(g.graph.getFlow(f).connections).toEqual([{ from: root, to: node.id }])
  })

  it('refuses a parent from another flow with not_found and creates nothing', () => {
    const g = setup()
    const f = g.flow()
    const stranger = g.add(g.flow('other'), 'stranger')
    expect(errorCode(() => g.graph.createNode({ flow_id: f, prompt: 'p', parent_ids: [stranger] }))).toBe('not_found')
    expect(g.graph.getFlow(f).nodes).toEqual([])
  })

  it('creates a branch as a sibling with the same parents, leaving the original untouched', () => {
    const g = setup()
    const f = g.flow()
    const [root, original] = g.chain(f, 'root', 'original') as [string, string]
    const child = g.add(f, 'child', [original])
    const before = g.graph.getNode(original)

    const branch = g.graph.createBranch({ node_id: original, prompt: 'retry' })
    expect(branch.prompt).toBe('retry')
    expect(edges(g.graph, f, { root, original, child, branch: branch.id })).toEqual([
      'original>child',
      'root>branch',
      'root>original',
    ])
    expect(g.graph.getNode(original)).toEqual(before)
  })

  it('gives a branch of a merge node both of its parents', () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b')
    const merge = g.add(f, 'merge', [a, b])
    const branch = g.graph.createBranch({ node_id: merge, prompt: 'merge again' })
    expect(edges(g.graph, f, { a, b, merge, branch: branch.id })).toEqual([
      'a>branch',
      'a>merge',
      'b>branch',
      'b>merge',
    ])
  })

  it('numbers nodes 1, 2, 3… per flow and never reuses the index of a deleted node', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    const [, , third] = g.chain(f, 'one', 'two', 'three')
    g.add(other, 'elsewhere')
    g.graph.deleteNode({ flow_id: f, id: third! })
    g.add(f, 'four')
    expect(g.graph.getFlow(f).nodes.map((m) => m.index)).toEqual([1, 2, 4])
    expect(g.graph.getFlow(other).nodes.map((m) => m.index)).toEqual([1])
  })
})

describe('editing nodes', () => {
  it('marks the summary of an edited node and of all its descendants stale, and no other', () => {
    const g = setup()
    const f = g.flow()
    const [root, edited, child, grandchild] = g.chain(f, 'root', 'edited', 'child', 'grandchild') as string[]
    const sibling = g.add(f, 'sibling', [root!])
    const merged = g.add(f, 'merged', [sibling, child!])
    const unrelated = g.add(f, 'unrelated')
    g.summarise()

    g.graph.updateNode({ id: edited!, response: 'a better answer' })
    expect(stale(g, [edited!, child!, grandchild!, merged])).toEqual([true, true, true, true])
    expect(stale(g, [root!, sibling, unrelated])).toEqual([false, false, false])
  })

  it('tells the canvas which summaries went stale, with the node as it now is', () => {
    const g = setup()
    const f = g.flow()
    const [edited, child] = g.chain(f, 'edited', 'child') as [string, string]
    g.summarise()
    g.events.length = 0

    g.graph.updateNode({ id: edited, prompt: 'new question' })
    const updated = g.events
      .filter((e) => e.event === 'node_updated')
      .map((e) => graphEvents.node_updated.parse(e.data))
    const edit = updated.find((u) => u.node.id === edited)
    expect(edit?.node).toMatchObject({ prompt: 'new question', metadata: { summary: { updated: true } } })
    expect(updated.find((u) => u.node.id === child)?.node.metadata.summary.updated).toBe(true)
  })

  it('leaves summaries fresh when only tags change or the text is the same', () => {
    const g = setup()
    const f = g.flow()
    const [a, b] = g.chain(f, 'a', 'b') as [string, string]
    g.summarise()
    g.graph.updateNode({ id: a, tags: ['x'] })
    g.graph.updateNode({ id: a, prompt: 'a' })
    expect(stale(g, [a, b])).toEqual([false, false])
  })

  it('keeps each tag once, in the order first given', () => {
    const g = setup()
    const f = g.flow()
    const id = g.add(f, 'p', [], { tags: ['cat', 'dog', 'cat'] })
    expect(g.graph.getNode(id).metadata.tags).toEqual(['cat', 'dog'])
    g.graph.updateNode({ id, tags: ['fish', ' fish ', 'cat', 'fish'] })
    expect(g.graph.getNode(id).metadata.tags).toEqual(['fish', 'cat'])
  })

  it('needs flow_id to edit a node that two flows share', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    const shared = g.add(f, 'shared')
    g.share(shared, other)
    expect(errorCode(() => g.graph.updateNode({ id: shared, prompt: 'edited' }))).toBe('bad_input')
    expect(g.graph.updateNode({ id: shared, flow_id: other, prompt: 'edited' }).prompt).toBe('edited')
  })
})

describe('deleting nodes', () => {
  it('reattaches the children of a deleted node to its parents by default', () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b')
    const gone = g.add(f, 'gone', [a, b])
    const c = g.add(f, 'c', [gone])
    const d = g.add(f, 'd', [gone])

    expect(g.graph.deleteNode({ flow_id: f, id: gone })).toEqual({ deleted_node_ids: [gone] })
    expect(edges(g.graph, f, { a, b, c, d })).toEqual(['a>c', 'a>d', 'b>c', 'b>d'])
    expect(errorCode(() => g.graph.getNode(gone))).toBe('not_found')
  })

  it('deletes a node with everything below it in subtree mode', () => {
    const g = setup()
    const f = g.flow()
    const [root, top, child, grandchild] = g.chain(f, 'root', 'top', 'child', 'grandchild') as string[]
    const side = g.add(f, 'side', [top!])
    const keep = g.add(f, 'keep', [root!])

    const { deleted_node_ids } = g.graph.deleteNode({ flow_id: f, id: top!, mode: 'subtree' })
    expect([...deleted_node_ids].sort()).toEqual([top!, child!, grandchild!, side].sort())
    expect(g.graph.getFlow(f).nodes.map((m) => m.id)).toEqual([root, keep])
    expect(edges(g.graph, f, { root: root!, keep })).toEqual(['root>keep'])
    for (const id of deleted_node_ids) expect(errorCode(() => g.graph.getNode(id))).toBe('not_found')
  })

  it('keeps a node that another flow holds when it is deleted from one', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    const shared = g.add(f, 'shared')
    g.share(shared, other)

    g.graph.deleteNode({ flow_id: f, id: shared })
    expect(g.graph.getFlow(f).nodes).toEqual([])
    expect(g.graph.getNode(shared).prompt).toBe('shared')
    expect(g.graph.loadFlow(other).nodes.map((n) => n.id)).toEqual([shared])
  })

  it('deletes a flow with the nodes only it held', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    const [mine, shared] = g.chain(f, 'mine', 'shared') as [string, string]
    g.share(shared, other)

    expect(g.graph.deleteFlow(f)).toEqual({ id: f, deleted_node_ids: [mine] })
    expect(errorCode(() => g.graph.getFlow(f))).toBe('not_found')
    expect(g.graph.getNode(shared).prompt).toBe('shared')
    expect(g.graph.listFlows().map((s) => s.id)).toEqual([other])
  })
})

describe('seed §9 library operations', () => {
  it('adds an existing node to another flow under a parent there, shared not copied; undo takes it out again', () => {
    const g = setup()
    const f = g.flow()
    const other = g.flow('other')
    const node = g.add(f, 'shared')
    const root = g.add(other, 'root')
    g.graph.addToFlow({ flow_id: other, node_id: node, parent_ids: [root] })
    expect(
      g.graph
        .loadFlow(other)
        .nodes.map((n) => n.id)
        .sort(),
    ).toEqual([node, root].sort())
    expect(edges(g.graph, other, { root, node })).toEqual(['root>node'])
    expect(g.graph.flowsOfNode(node).sort()).toEqual([f, other].sort())
    expect(errorCode(() => g.graph.addToFlow({ flow_id: other, node_id: node }))).toBe('conflict')
    g.graph.undo(other)
    expect(g.graph.loadFlow(other).nodes.map((n) => n.id)).toEqual([root])
    expect(g.graph.getNode(node).prompt).toBe('shared') // still in its first flow
  })

  it('rebuilds a flow as the chain given, dropping the rest, in one undoable step', () => {
    const g = setup()
    const f = g.flow()
    const [a, b, c] = g.chain(f, 'a', 'b', 'c')
    const d = g.add(f, 'd', [a!])
    g.graph.rebuildFlow({ flow_id: f, node_ids: [c!, a!] })
    expect(
      g.graph
        .loadFlow(f)
        .nodes.map((n) => n.prompt)
        .sort(),
    ).toEqual(['a', 'c'])
    expect(edges(g.graph, f, { a: a!, c: c! })).toEqual(['c>a'])
    expect(errorCode(() => g.graph.getNode(d))).toBe('not_found') // only this flow held it
    expect(errorCode(() => g.graph.rebuildFlow({ flow_id: f, node_ids: [a!, a!] }))).toBe('bad_input')
    g.graph.undo(f)
    expect(
      g.graph
        .loadFlow(f)
        .nodes.map((n) => n.prompt)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd'])
    expect(edges(g.graph, f, { a: a!, b: b!, c: c!, d })).toEqual(['a>b', 'a>d', 'b>c'])
  })
})

describe('named branches (seed §9.2 branch_name)', () => {
  it('names a branch when connecting or afterwards, keeps the name through re-parenting and undo', () => {
    const g = setup()
    const f = g.flow()
    const [a, b] = g.chain(f, 'a', 'b')
    const c = g.add(f, 'c')
    g.graph.connect({ flow_id: f, source_id: a!, target_id: c, branch_name: 'the other way' })
    expect(g.graph.getFlow(f).connections).toContainEqual({ from: a, to: c, label: 'the other way' })
    expect(g.graph.getFlow(f).connections).toContainEqual({ from: a, to: b }) // unnamed stays as it was

    g.graph.nameBranch({ flow_id: f, source_id: a!, target_id: b!, name: 'main road' })
    g.graph.reconnect({ flow_id: f, source_id: a!, target_id: b!, new_source_id: c, new_target_id: b! })
    expect(g.graph.getFlow(f).connections).toContainEqual({ from: c, to: b, label: 'main road' })
    g.graph.undo(f) // the re-parent
    expect(g.graph.getFlow(f).connections).toContainEqual({ from: a, to: b, label: 'main road' })
    g.graph.undo(f) // the naming
    expect(g.graph.getFlow(f).connections).toContainEqual({ from: a, to: b })
    g.graph.nameBranch({ flow_id: f, source_id: a!, target_id: c, name: null })
    expect(g.graph.getFlow(f).connections).toContainEqual({ from: a, to: c })
    expect(errorCode(() => g.graph.nameBranch({ flow_id: f, source_id: b!, target_id: c, name: 'x' }))).toBe(
      'not_found',
    )
  })

  it('brings a named connection back with its name when a deleted node is restored by undo', () => {
    const g = setup()
    const f = g.flow()
    const [a, b] = g.chain(f, 'a', 'b')
    g.graph.nameBranch({ flow_id: f, source_id: a!, target_id: b!, name: 'kept' })
    g.graph.deleteNode({ flow_id: f, id: b!, mode: 'subtree' })
    g.graph.undo(f)
    expect(g.graph.getFlow(f).connections).toEqual([{ from: a, to: b, label: 'kept' }])
  })
})

describe('events', () => {
  it('announces a new node, then the flow that now holds it', async () => {
    const g = setup()
    const f = g.flow()
    g.events.length = 0
    const id = g.add(f, 'hello')
    await g.settled()
    expect(g.events.map((e) => e.event)).toEqual(['node_created', 'flow_changed'])
    const created = graphEvents.node_created.parse(g.events[0]!.data)
    expect(created).toMatchObject({ flow_id: f, node: { id, prompt: 'hello' } })
    const patch = graphEvents.flow_changed.parse(g.events[1]!.data)
    expect(patch.members.map((m) => m.id)).toEqual([id])
  })

  it('announces an edited node and an edge change', async () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b')
    await g.settled()
    g.events.length = 0
    g.graph.updateNode({ id: a, tags: ['t'] })
    await g.settled()
    expect(g.events.map((e) => e.event)).toEqual(['node_updated', 'flow_changed'])
    expect(graphEvents.node_updated.parse(g.events[0]!.data).node.metadata.tags).toEqual(['t'])

    g.events.length = 0
    const answered = g.graph.connect({ flow_id: f, source_id: a, target_id: b })
    await g.settled()
    expect(g.events.map((e) => e.event)).toEqual(['flow_changed'])
    expect(graphEvents.flow_changed.parse(g.events[0]!.data)).toMatchObject({
      targets: [b],
      connections: [{ from: a, to: b }],
      members: [],
    })
    expect(answered.connections).toEqual([{ from: a, to: b }])
  })

  it('announces the edits of one turn of work as one flow_changed, after the node events, with the last shape', async () => {
    const g = setup()
    const f = g.flow()
    const gone = g.flow('gone')
    await g.settled()
    g.events.length = 0
    const [a, b, c] = g.chain(f, 'a', 'b', 'c') as [string, string, string]
    g.graph.setPinned({ flow_id: f, node_id: a, pinned: true })
    g.add(gone, 'soon deleted')
    g.graph.deleteFlow(gone)
    expect(g.events.map((e) => e.event)).toEqual([
      'node_created',
      'node_created',
      'node_created',
      'node_created',
      'flow_deleted',
    ])
    await g.settled()
    const announced = g.events
      .filter((e) => e.event === 'flow_changed')
      .map((e) => graphEvents.flow_changed.parse(e.data))
    expect(announced.map((patch) => patch.flow_id)).toEqual([f]) // the deleted flow is not announced again
    expect(announced[0]!.members.map((m) => [m.id, m.pinned])).toEqual([
      [a, true],
      [b, false],
      [c, false],
    ])
    expect(announced[0]!.connections).toEqual([
      { from: a, to: b },
      { from: b, to: c },
    ])
    expect(announced[0]!.removed).toEqual([])
  })

  it('announces a deleted flow', () => {
    const g = setup()
    const f = g.flow()
    g.events.length = 0
    g.graph.deleteFlow(f)
    expect(g.events).toEqual([{ event: 'flow_deleted', data: { id: f } }])
  })
})
