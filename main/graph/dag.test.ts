import { describe, expect, it } from 'vitest'
import { canvas, edges, errorCode, useGraph } from '../../tests/support/graphFixture'

const setup = useGraph()

describe('DAG rules', () => {
  it('allows branches (two children of one node) and merges (one node with two parents)', () => {
    const g = setup()
    const f = g.flow()
    const root = g.add(f, 'root')
    const a = g.add(f, 'a', [root])
    const b = g.add(f, 'b', [root])
    const merge = g.add(f, 'merge', [a, b])
    expect(edges(g.graph, f, { root, a, b, merge })).toEqual(['a>merge', 'b>merge', 'root>a', 'root>b'])

    const c = g.add(f, 'c')
    g.graph.connect({ flow_id: f, source_id: c, target_id: merge })
    expect(edges(g.graph, f, { root, a, b, c, merge })).toContain('c>merge')
  })

  it('refuses a direct cycle, a self-loop and a long indirect cycle with `cycle`, changing nothing', () => {
    const g = setup()
    const f = g.flow()
    const ids = g.chain(f, 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8')
    const [first, second] = ids as [string, string]
    const last = ids.at(-1)!
    const before = canvas(g.graph, f)
    const undoBefore = g.graph.undoState(f)
    const eventsBefore = g.events.length

    expect(errorCode(() => g.graph.connect({ flow_id: f, source_id: second, target_id: first }))).toBe('cycle')
    expect(errorCode(() => g.graph.connect({ flow_id: f, source_id: first, target_id: first }))).toBe('cycle')
    expect(errorCode(() => g.graph.connect({ flow_id: f, source_id: last, target_id: first }))).toBe('cycle')

    expect(canvas(g.graph, f)).toEqual(before)
    expect(g.graph.undoState(f)).toEqual(undoBefore)
    expect(g.events.length).toBe(eventsBefore)
  })

  it('refuses a cycle that passes through a merge', () => {
    const g = setup()
    const f = g.flow()
    const root = g.add(f, 'root')
    const a = g.add(f, 'a', [root])
    const b = g.add(f, 'b')
    const merge = g.add(f, 'merge', [a, b])
    expect(errorCode(() => g.graph.connect({ flow_id: f, source_id: merge, target_id: root }))).toBe('cycle')
    // b is not an ancestor of root, so root → b is fine.
    g.graph.connect({ flow_id: f, source_id: root, target_id: b })
    expect(edges(g.graph, f, { root, a, b, merge })).toContain('root>b')
  })

  it('answers not_found for edges between nodes of another flow', () => {
    const g = setup()
    const mine = g.flow('mine')
    const other = g.flow('other')
    const [x, y] = g.chain(other, 'x', 'y') as [string, string]
    const z = g.add(other, 'z')
    const local = g.add(mine, 'local')
    const before = canvas(g.graph, mine)

    expect(errorCode(() => g.graph.connect({ flow_id: mine, source_id: x, target_id: z }))).toBe('not_found')
    expect(errorCode(() => g.graph.connect({ flow_id: mine, source_id: local, target_id: x }))).toBe('not_found')
    expect(errorCode(() => g.graph.disconnect({ flow_id: mine, source_id: x, target_id: y }))).toBe('not_found')
    expect(
      errorCode(() =>
        g.graph.reconnect({ flow_id: mine, source_id: x, target_id: y, new_source_id: z, new_target_id: y }),
      ),
    ).toBe('not_found')
    expect(canvas(g.graph, mine)).toEqual(before)
    expect(edges(g.graph, other, { x, y })).toEqual(['x>y'])
  })

  it('refuses to reconnect onto a node of another flow, keeping the old edge', () => {
    const g = setup()
    const f = g.flow()
    const [a, b] = g.chain(f, 'a', 'b') as [string, string]
    const stranger = g.add(g.flow('other'), 'stranger')
    expect(
      errorCode(() =>
        g.graph.reconnect({ flow_id: f, source_id: a, target_id: b, new_source_id: stranger, new_target_id: b }),
      ),
    ).toBe('not_found')
    expect(edges(g.graph, f, { a, b })).toEqual(['a>b'])
  })

  it('moves one end of an edge in one step (drag to re-parent)', () => {
    const g = setup()
    const f = g.flow()
    const [a, b, c] = g.chain(f, 'a', 'b', 'c') as [string, string, string]
    const d = g.add(f, 'd', [a])
    g.graph.reconnect({ flow_id: f, source_id: b, target_id: c, new_source_id: d, new_target_id: c })
    expect(edges(g.graph, f, { a, b, c, d })).toEqual(['a>b', 'a>d', 'd>c'])
  })

  it('refuses a reconnect that would create a cycle and leaves the old edge in place', () => {
    const g = setup()
    const f = g.flow()
    const [a, b, c] = g.chain(f, 'a', 'b', 'c') as [string, string, string]
    const before = canvas(g.graph, f)
    // Moving the source of a → b to c would give b → c → b.
    expect(
      errorCode(() =>
        g.graph.reconnect({ flow_id: f, source_id: a, target_id: b, new_source_id: c, new_target_id: b }),
      ),
    ).toBe('cycle')
    // Moving the target of b → c to a would give a → b → a.
    expect(
      errorCode(() =>
        g.graph.reconnect({ flow_id: f, source_id: b, target_id: c, new_source_id: b, new_target_id: a }),
      ),
    ).toBe('cycle')
    expect(canvas(g.graph, f)).toEqual(before)
    expect(edges(g.graph, f, { a, b, c })).toEqual(['a>b', 'b>c'])
  })

  it('lets a reconnect reverse an edge, since the old edge no longer counts', () => {
    const g = setup()
    const f = g.flow()
    const [a, b] = g.chain(f, 'a', 'b') as [string, string]
    g.graph.reconnect({ flow_id: f, source_id: a, target_id: b, new_source_id: b, new_target_id: a })
    expect(edges(g.graph, f, { a, b })).toEqual(['b>a'])
  })

  it('answers not_found when disconnecting or reconnecting an edge that does not exist', () => {
    const g = setup()
    const f = g.flow()
    const a = g.add(f, 'a')
    const b = g.add(f, 'b')
    expect(errorCode(() => g.graph.disconnect({ flow_id: f, source_id: a, target_id: b }))).toBe('not_found')
    expect(
      errorCode(() =>
        g.graph.reconnect({ flow_id: f, source_id: a, target_id: b, new_source_id: b, new_target_id: a }),
      ),
    ).toBe('not_found')
  })
})
