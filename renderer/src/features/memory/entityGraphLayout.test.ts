import { describe, expect, it } from 'vitest'
import {
  type Entity,
  type EntityGraphNode,
  edgeWidth,
  entityMatches,
  entityNodeSize,
  layoutEntityGraph,
  routePath,
} from './entityGraphLayout'

const entity = (id: number, name: string, unit_count = 1, etype = 'person', aliases: string[] = []): Entity => ({
  id,
  etype,
  name,
  aliases,
  unit_count,
})
const edge = (src: number, rel: string, dst: number, weight = 1) => ({
  src_entity_id: src,
  rel_type: rel,
  dst_entity_id: dst,
  weight,
  first_seen_at: null,
  last_seen_at: null,
  evidence_unit_id: null,
})

function overlapping(nodes: EntityGraphNode[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i]!
      const b = nodes[j]!
      const apart =
        a.position.x + a.width <= b.position.x ||
        b.position.x + b.width <= a.position.x ||
        a.position.y + a.height <= b.position.y ||
        b.position.y + b.height <= a.position.y
      if (!apart) pairs.push([a.id, b.id])
    }
  return pairs
}

describe('entity graph layout', () => {
  const data = {
    entities: [
      entity(1, 'Pepper', 5),
      entity(2, 'Kyoto', 3, 'place'),
      entity(3, 'Mio', 2),
      entity(4, 'Tea', 1, 'topic'),
      entity(5, 'Library', 1, 'org'),
      entity(6, 'Lonely', 1, 'work'),
    ],
    edges: [
      edge(1, 'lives_in', 2),
      edge(3, 'lives_in', 2),
      edge(3, 'knows', 1, 3),
      edge(3, 'friend', 1), // parallel to "knows": same pair, another relation
      edge(3, 'likes', 4),
      edge(3, 'works_at', 5),
      edge(5, 'part_of', 5), // a relation of an entity to itself
    ],
  }

  it('places every entity, sized by its name and memory count, without overlaps', () => {
    const laid = layoutEntityGraph(data)
    expect(laid.nodes.map((n) => n.id).sort()).toEqual(['1', '2', '3', '4', '5', '6'])
    for (const n of laid.nodes) {
      expect(Number.isFinite(n.position.x) && Number.isFinite(n.position.y)).toBe(true)
      expect(n).toMatchObject(entityNodeSize(n.entity))
    }
    expect(overlapping(laid.nodes)).toEqual([])
    const pepper = laid.nodes.find((n) => n.id === '1')!
    const tea = laid.nodes.find((n) => n.id === '4')!
    expect(pepper.tier).toBeGreaterThan(tea.tier)
    expect(pepper.height).toBeGreaterThan(tea.height)
    expect(laid.total).toBe(6)
  })

  it('maps each relation to its entities, keeping parallel relations apart', () => {
    const laid = layoutEntityGraph(data)
    expect(laid.edges.map((e) => [e.source, e.rel, e.target]).sort()).toEqual(
      [
        ['1', 'lives_in', '2'],
        ['3', 'friend', '1'],
        ['3', 'knows', '1'],
        ['3', 'likes', '4'],
        ['3', 'lives_in', '2'],
        ['3', 'works_at', '5'],
        ['5', 'part_of', '5'],
      ].sort(),
    )
    expect(new Set(laid.edges.map((e) => e.id)).size).toBe(laid.edges.length)
    const knows = laid.edges.find((e) => e.rel === 'knows')!
    const friend = laid.edges.find((e) => e.rel === 'friend')!
    expect(knows.weight).toBe(3)
    expect(knows.points.length).toBeGreaterThanOrEqual(2)
    expect(knows.label).not.toEqual(friend.label) // two labels, not one on top of the other
  })

  it('keeps every relation label clear of every entity', () => {
    const laid = layoutEntityGraph(data)
    for (const e of laid.edges) {
      const hit = laid.nodes.filter(
        (n) =>
          Math.abs(e.label.x - (n.position.x + n.width / 2)) < n.width / 2 + 8 &&
          Math.abs(e.label.y - (n.position.y + n.height / 2)) < n.height / 2 + 4,
      )
      expect([e.rel, hit.map((n) => n.entity.name)]).toEqual([e.rel, []])
    }
  })

  it('starts and ends each route at its own entities', () => {
    const laid = layoutEntityGraph(data)
    const box = (id: string) => laid.nodes.find((n) => n.id === id)!
    const near = (p: { x: number; y: number }, n: EntityGraphNode) =>
      p.x >= n.position.x - 1 &&
      p.x <= n.position.x + n.width + 1 &&
      p.y >= n.position.y - 1 &&
      p.y <= n.position.y + n.height + 1
    for (const e of laid.edges) {
      expect(near(e.points[0]!, box(e.source))).toBe(true)
      expect(near(e.points.at(-1)!, box(e.target))).toBe(true)
    }
  })

  it('keeps the entities with most memories past the cap, and the ones a search asks for', () => {
    const many = {
      entities: Array.from({ length: 200 }, (_, i) => entity(i + 1, `E${i + 1}`, i + 1)),
      edges: [edge(200, 'knows', 199), edge(200, 'knows', 1)],
    }
    const laid = layoutEntityGraph(many)
    expect(laid.total).toBe(200)
    expect(laid.nodes).toHaveLength(150)
    const ids = new Set(laid.nodes.map((n) => n.entity.id))
    expect(ids.has(200) && ids.has(51)).toBe(true)
    expect(ids.has(50) || ids.has(1)).toBe(false)
    expect(laid.edges.map((e) => e.id)).toEqual(['200-knows-199']) // the relation to a dropped entity goes too
    expect(overlapping(laid.nodes)).toEqual([])

    const searched = layoutEntityGraph(many, { keep: new Set([1]) })
    expect(searched.nodes).toHaveLength(150)
    expect(searched.nodes.some((n) => n.entity.id === 1)).toBe(true)
    expect(searched.nodes.some((n) => n.entity.id === 51)).toBe(false)
  })

  it('packs unconnected entities into a block rather than one long row', () => {
    const lonely = { entities: Array.from({ length: 36 }, (_, i) => entity(i + 1, `Entity ${i + 1}`)), edges: [] }
    const laid = layoutEntityGraph(lonely)
    const right = Math.max(...laid.nodes.map((n) => n.position.x + n.width))
    const bottom = Math.max(...laid.nodes.map((n) => n.position.y + n.height))
    expect(right / bottom).toBeLessThan(3)
    expect(overlapping(laid.nodes)).toEqual([])
  })

  it('draws nothing for no entities', () => {
    expect(layoutEntityGraph({ entities: [], edges: [] })).toEqual({ nodes: [], edges: [], total: 0 })
  })
})

describe('entity graph helpers', () => {
  it('thickens a relation each time it is seen again, within bounds', () => {
    expect(edgeWidth(1)).toBe(1)
    expect(edgeWidth(3)).toBeGreaterThan(edgeWidth(2))
    expect(edgeWidth(100)).toBe(6)
  })

  it('draws a route as a path that starts and ends on its end points', () => {
    expect(routePath([])).toBe('')
    expect(
      routePath([
        { x: 0, y: 0 },
        { x: 10, y: 20 },
      ]),
    ).toBe('M 0 0 L 10 20')
    expect(
      routePath([
        { x: 0, y: 0 },
        { x: 10, y: 10 },
        { x: 20, y: 0 },
      ]),
    ).toBe('M 0 0 Q 10 10 15 5 L 20 0')
  })

  it('matches a search in the name or an alias, ignoring case', () => {
    const mio = entity(1, 'Mio', 1, 'person', ['mio-chan'])
    expect(entityMatches(mio, '')).toBe(true)
    expect(entityMatches(mio, 'MI')).toBe(true)
    expect(entityMatches(mio, 'chan')).toBe(true)
    expect(entityMatches(mio, 'kyoto')).toBe(false)
  })
})
