import { describe, expect, it, vi } from 'vitest'
import type { Connection } from '@shared/contract'
import { AppError } from '@shared/errors'
import { EventBus } from '../kernel/events'
import { adjacency } from './dag'
import { GraphService } from './graphService'
import { seededRandom } from '../../tests/support/seededRandom'
import { useTwoConnections } from '../../tests/support/twoConnections'

// Each node's tree roots are kept between packs (treeRoots.ts) and followed through the change
// log. They must always equal the roots read afresh from the flows' connections: after every
// kind of edit, undo and redo, and after writes made by another connection (the CLI).

const twoConnections = useTwoConnections()

/**
 * A node's roots from its flows' connections read whole: the nodes without parents above it, or
 * for one that is another version of a first node (root_alternatives), that node's roots — unless
 * that comes back to it (a version connected above its original): then itself.
 */
function freshRoots(graph: GraphService, nodeId: string): Set<string> {
  const roots = new Set<string>()
  for (const flowId of graph.flowsOfNode(nodeId)) for (const r of freshRootsIn(graph, flowId, nodeId)) roots.add(r)
  return roots
}

function freshRootsIn(
  graph: GraphService,
  flowId: string,
  nodeId: string,
  following: ReadonlySet<string> = new Set(),
): Set<string> {
  const { parents } = adjacency(graph.store.connections(flowId) as Connection[])
  const roots = new Set<string>()
  const stack = [nodeId]
  const seen = new Set<string>()
  while (stack.length > 0) {
    const id = stack.pop()!
    if (seen.has(id)) continue
    seen.add(id)
    const ps = parents.get(id) ?? []
    const of = ps.length === 0 && !following.has(id) ? graph.store.alternativeOf(flowId, id) : null
    if (of !== null) for (const r of freshRootsIn(graph, flowId, of, new Set([...following, id]))) roots.add(r)
    else if (ps.length === 0) roots.add(id)
    stack.push(...ps)
  }
  return roots
}

/** A conversation whose first message was regenerated: the first, a turn below it, its new version. */
function regeneratedFirst(below = 'and then') {
  const { db } = twoConnections()
  const graph = new GraphService(db, new EventBus())
  const f = graph.createFlow({ name: 'a' }).id
  const first = graph.createNode({ flow_id: f, prompt: 'hello' }).id
  const belowId = graph.createNode({ flow_id: f, prompt: below, parent_ids: [first] }).id
  const again = graph.createBranch({ flow_id: f, node_id: first, prompt: 'hello' }).id
  const rootsOf = (id: string) => graph.nodeTrees([id]).get(id)!.roots
  return { graph, f, first, below: belowId, again, rootsOf }
}

describe('tree roots', () => {
  it('equal the roots read afresh after every kind of edit, undo and redo (300 random edits)', () => {
    const { db } = twoConnections()
    const graph = new GraphService(db, new EventBus())
    const next = seededRandom(20261127)
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)]
    const flows = [graph.createFlow({ name: 'a' }).id, graph.createFlow({ name: 'b' }).id]
    const nodesOf = (f: string) => graph.store.memberIds(f)
    let turn = 0
    const edits: Array<(f: string) => void> = [
      (f) => {
        const parent = next() < 0.85 ? pick(nodesOf(f)) : undefined
        graph.createNode({ flow_id: f, prompt: `turn ${turn++}`, parent_ids: parent ? [parent] : [] })
      },
      (f) => {
        const [a, b] = [pick(nodesOf(f)), pick(nodesOf(f))]
        if (a && b) graph.connect({ flow_id: f, source_id: a, target_id: b })
      },
      (f) => {
        const c = pick(graph.store.connections(f))
        if (c) graph.disconnect({ flow_id: f, source_id: c.from, target_id: c.to })
      },
      (f) => {
        const [c, n] = [pick(graph.store.connections(f)), pick(nodesOf(f))]
        if (c && n)
          graph.reconnect({ flow_id: f, source_id: c.from, target_id: c.to, new_source_id: n, new_target_id: c.to })
      },
      (f) => {
        const n = pick(nodesOf(f))
        if (n) graph.deleteNode({ id: n, flow_id: f, mode: next() < 0.5 ? 'reattach' : 'subtree' })
      },
      (f) => {
        const other = flows.find((id) => id !== f)!
        const [n, parent] = [pick(nodesOf(other)), pick(nodesOf(f))]
        if (n) graph.addToFlow({ flow_id: f, node_id: n, parent_ids: parent ? [parent] : [] })
      },
      // Regenerate, or an edited prompt: another version beside the node, of a first node's tree.
      (f) => {
        const n = pick(nodesOf(f))
        if (n) graph.createBranch({ flow_id: f, node_id: n, prompt: `again ${turn++}` })
      },
      (f) => graph.undo(f),
      (f) => graph.redo(f),
    ]
    let compared = 0
    for (let i = 0; i < 300; i++) {
      const f = pick(flows)!
      const edit = i < 30 || next() < 0.3 ? edits[0]! : pick(edits)!
      try {
        edit(f)
      } catch (e) {
        if (!(e instanceof AppError)) throw e // a refused edit (a cycle, nothing to undo) changes nothing
      }
      // Ask about a few nodes at a time, as packs do, so some are kept and some are not.
      const all = [...new Set(flows.flatMap(nodesOf))]
      const asked = all.filter(() => next() < 0.4)
      const trees = graph.nodeTrees(asked)
      for (const id of asked) {
        expect(trees.get(id)?.roots, `node ${id} after edit ${i}`).toEqual(freshRoots(graph, id))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(1000)
  }, 60_000)

  it("give a first node's other version (Regenerate, an edited prompt) the original's tree, through undo and redo", () => {
    const { graph, f, first, below, again, rootsOf } = regeneratedFirst()
    const next = graph.createNode({ flow_id: f, prompt: 'on the new one', parent_ids: [again] }).id
    const elsewhere = graph.createNode({ flow_id: f, prompt: 'a new conversation' }).id
    // One tree: memory keeps the answer the new version replaced out as another branch of it.
    expect(rootsOf(next)).toEqual(new Set([first]))
    expect(rootsOf(below)).toEqual(new Set([first]))
    expect(rootsOf(elsewhere)).toEqual(new Set([elsewhere]))
    // A version of the version, and one of a node further down (that shares its parent anyway).
    const third = graph.createBranch({ flow_id: f, node_id: again, prompt: 'hi' }).id
    expect(rootsOf(third)).toEqual(new Set([first]))
    expect(graph.store.alternativeOf(f, graph.createBranch({ flow_id: f, node_id: below, prompt: 'x' }).id)).toBeNull()
    // Deleted, what went on below it stays the conversation's; brought back, still the original's version.
    graph.deleteNode({ flow_id: f, id: again, mode: 'reattach' })
    expect(rootsOf(next)).toEqual(new Set([first]))
    graph.undo(f)
    expect(graph.store.alternativeOf(f, next)).toBeNull()
    expect(rootsOf(next)).toEqual(new Set([first]))
  })

  it('answer a version connected above its original the same every time it is asked', () => {
    const { graph, f, first, again, rootsOf } = regeneratedFirst()
    const other = graph.createNode({ flow_id: f, prompt: 'another first message' }).id
    // The original gets two parents: its own new version, and another conversation's first message.
    graph.connect({ flow_id: f, source_id: again, target_id: first })
    graph.connect({ flow_id: f, source_id: other, target_id: first })
    // The version's tree is its original's: above that, the version itself (met again, a root) and the other.
    const expected = new Set([again, other])
    expect(rootsOf(again)).toEqual(expected)
    // Asked again, from what was kept: the answer cut short while following the version (only
    // itself) stood for it here before.
    expect(rootsOf(again)).toEqual(expected)
    expect(freshRoots(graph, again)).toEqual(expected)
  })

  it("follow a change above a version's original: a new parent of the original moves the version's tree", () => {
    const { graph, f, first, again, rootsOf } = regeneratedFirst()
    expect(rootsOf(again)).toEqual(new Set([first]))
    // The original is kept only as what the version was read from: a connection into it still counts.
    const above = graph.createNode({ flow_id: f, prompt: 'said before it' }).id
    graph.connect({ flow_id: f, source_id: above, target_id: first })
    expect(rootsOf(again)).toEqual(new Set([above]))
    expect(freshRoots(graph, again)).toEqual(new Set([above]))
  })

  it("keep a deleted first message's continuation in its conversation, through undo and redo", () => {
    const { graph, f, first, below, again, rootsOf } = regeneratedFirst()
    const merged = graph.createNode({ flow_id: f, prompt: 'both', parent_ids: [first, again] }).id
    const elsewhere = graph.createNode({ flow_id: f, prompt: 'a new conversation' }).id
    // The first message deleted, its children reattached (to nothing): the turn below it and the
    // regenerated first message are still one conversation, so neither remembers the other as said
    // elsewhere; a merge keeps its other parent and needs no version.
    graph.deleteNode({ flow_id: f, id: first, mode: 'reattach' })
    expect(graph.store.parentIds(f, below)).toEqual([])
    expect(rootsOf(below)).toEqual(rootsOf(again))
    expect(graph.store.alternativeOf(f, merged)).toBeNull()
    expect(rootsOf(elsewhere)).toEqual(new Set([elsewhere]))
    expect(graph.nodeTrees([below, elsewhere]).get(below)!.roots).not.toEqual(rootsOf(elsewhere))
    graph.undo(f)
    expect(graph.store.alternativeOf(f, below)).toBeNull()
    expect(rootsOf(below)).toEqual(new Set([first]))
    graph.redo(f)
    expect(rootsOf(below)).toEqual(rootsOf(again))
    for (const id of [below, again, merged]) expect(rootsOf(id)).toEqual(freshRoots(graph, id))
  })

  it("keep a regenerated first message's tree where it is shared: a story's route, another conversation", () => {
    const { graph, f, first, below, again, rootsOf } = regeneratedFirst('the old road')
    const next = graph.createNode({ flow_id: f, prompt: 'the new road', parent_ids: [again] }).id
    // A story's route goes on from the path it was forked at (story_fork rebuilds it, shared):
    // what lay on the original's side stays the road not taken there too.
    const route = graph.createFlow({ name: 'route' }).id
    graph.rebuildFlow({ flow_id: route, node_ids: [again, next] })
    const onRoute = graph.createNode({ flow_id: route, prompt: 'further', parent_ids: [next] }).id
    expect(rootsOf(onRoute)).toEqual(rootsOf(below))
    expect(graph.store.alternativeOf(route, again)).toBe(first)
    // A version of that version, shared alone: the original it is one of, not the version between.
    const third = graph.createBranch({ flow_id: f, node_id: again, prompt: 'hi' }).id
    const alone = graph.createFlow({ name: 'alone' }).id
    graph.addToFlow({ flow_id: alone, node_id: third })
    const after = graph.createNode({ flow_id: alone, prompt: 'more', parent_ids: [third] }).id
    expect(rootsOf(after)).toEqual(new Set([first]))
    // Shared into a conversation holding both, beside the original: still its version.
    const both = graph.createFlow({ name: 'both' }).id
    graph.addToFlow({ flow_id: both, node_id: first })
    graph.addToFlow({ flow_id: both, node_id: again })
    expect(graph.rootAlternatives(both)).toEqual([{ node_id: again, of_node_id: first }])
    // Undone, the share takes the row with it; redone, it is back.
    graph.undo(both)
    expect(graph.rootAlternatives(both)).toEqual([])
    graph.redo(both)
    expect(graph.rootAlternatives(both)).toEqual([{ node_id: again, of_node_id: first }])
  })

  it('give a version connected above its original a tree of its own, rather than never ending', () => {
    const { db } = twoConnections()
    const graph = new GraphService(db, new EventBus())
    const f = graph.createFlow({ name: 'a' }).id
    const first = graph.createNode({ flow_id: f, prompt: 'hello' }).id
    const again = graph.createBranch({ flow_id: f, node_id: first, prompt: 'hello' }).id
    graph.connect({ flow_id: f, source_id: again, target_id: first })
    const below = graph.createNode({ flow_id: f, prompt: 'and then', parent_ids: [first] }).id
    for (const id of [first, again, below]) expect(graph.nodeTrees([id]).get(id)!.roots).toEqual(new Set([again]))
  })

  it('follow a connection written by another connection (the CLI)', () => {
    const { db, other } = twoConnections()
    const graph = new GraphService(db, new EventBus())
    const f = graph.createFlow({ name: 'a' }).id
    const a = graph.createNode({ flow_id: f, prompt: 'a' }).id
    const b = graph.createNode({ flow_id: f, prompt: 'b' }).id
    const c = graph.createNode({ flow_id: f, prompt: 'c', parent_ids: [b] }).id
    expect(graph.nodeTrees([c]).get(c)!.roots).toEqual(new Set([b]))
    other.prepare('INSERT INTO connections (flow_id, source_id, target_id) VALUES (?, ?, ?)').run(f, a, b)
    expect(graph.nodeTrees([c]).get(c)!.roots).toEqual(new Set([a]))
  })

  it('read a long conversation upwards once, then one lookup per new turn', () => {
    const { db } = twoConnections()
    const graph = new GraphService(db, new EventBus())
    const f = graph.createFlow({ name: 'long' }).id
    const first = graph.createNode({ flow_id: f, prompt: 'turn 0' }).id
    let last = first
    for (let i = 1; i < 200; i++) last = graph.createNode({ flow_id: f, prompt: `turn ${i}`, parent_ids: [last] }).id
    const above = vi.spyOn(graph.store, 'edgesAbove')
    expect(graph.nodeTrees([last]).get(last)!.roots).toEqual(new Set([first]))
    expect(above).toHaveBeenCalledTimes(1)
    for (let i = 0; i < 20; i++) {
      last = graph.createNode({ flow_id: f, prompt: `more ${i}`, parent_ids: [last] }).id
      expect(graph.nodeTrees([last]).get(last)!.roots).toEqual(new Set([first]))
    }
    expect(above).toHaveBeenCalledTimes(1)
  })
})
