import dagre, { type EdgeLabel } from '@dagrejs/dagre'
import type { Out } from '@shared/contract'

type EntityGraphData = Out<'memory_list_entities'>
export type Entity = EntityGraphData['entities'][number]
export interface Point {
  x: number
  y: number
}

/** Past this many entities the graph is unreadable in a side panel; the ones with most memories stay. */
export const ENTITY_GRAPH_CAP = 150
/** Space between unconnected groups (and lone entities) when they are packed into rows. */
const GROUP_GAP = 28

export interface EntityGraphNode {
  /** The entity id as text: React Flow ids are strings. */
  id: string
  entity: Entity
  /** Top-left corner, as React Flow places nodes. */
  position: Point
  width: number
  height: number
  /** 0–4, from the entity's memory count: bigger entities draw bigger. */
  tier: number
}

export interface EntityGraphEdge {
  id: string
  source: string
  target: string
  rel: string
  weight: number
  /** The route dagre chose, from the source's border to the target's; parallel edges get separate routes. */
  points: Point[]
  label: Point
}

export interface EntityGraphLayout {
  nodes: EntityGraphNode[]
  edges: EntityGraphEdge[]
  /** How many entities there were before the cap. */
  total: number
}

/** 0 for one memory, then one step per doubling, at most 4. */
export function entityTier(unitCount: number): number {
  return Math.min(4, Math.floor(Math.log2(Math.max(1, unitCount))))
}

/** A node wide enough for its name and badges, larger for entities with more memories. */
export function entityNodeSize(entity: Entity): { width: number; height: number } {
  const tier = entityTier(entity.unit_count)
  // The name on one line, or the type badge and the count beside it, whichever is wider.
  const text = Math.max(entity.name.length * 7.5, entity.etype.length * 6.5 + 20 + String(entity.unit_count).length * 7)
  return { width: Math.round(Math.min(220, Math.max(96, text + 24)) + tier * 8), height: 46 + tier * 6 }
}

/** Stroke width: 1 for a relation seen once, thicker each time it is seen again, at most 6. */
export function edgeWidth(weight: number): number {
  return Math.min(6, 1 + Math.max(0, weight - 1) * 0.75)
}

/**
 * An SVG path along a route: from the first point, a curve bent by each inner point (through
 * the midpoints between them), then straight to the last. Two points make a straight line.
 */
export function routePath(points: Point[]): string {
  if (points.length === 0) return ''
  const [first, ...rest] = points
  let d = `M ${first!.x} ${first!.y}`
  for (let i = 0; i < rest.length - 1; i++) {
    const p = rest[i]!
    const next = rest[i + 1]!
    d += ` Q ${p.x} ${p.y} ${(p.x + next.x) / 2} ${(p.y + next.y) / 2}`
  }
  const last = rest.at(-1)
  return last ? `${d} L ${last.x} ${last.y}` : d
}

/** True when the query is empty or found in the entity's name or one of its aliases. */
export function entityMatches(entity: Entity, query: string): boolean {
  const q = query.trim().toLowerCase()
  return q === '' || [entity.name, ...entity.aliases].some((n) => n.toLowerCase().includes(q))
}

/**
 * Lays the entity graph out for drawing: the `cap` entities with most memories (plus any in
 * `keep`, so a search still finds one beyond the cap), each connected group laid out by dagre,
 * the groups packed into rows so a panel shows a block rather than one endless strip of
 * unconnected entities. Relations to entities left out are dropped.
 */
export function layoutEntityGraph(
  data: EntityGraphData,
  options: { cap?: number; keep?: ReadonlySet<number> } = {},
): EntityGraphLayout {
  const cap = options.cap ?? ENTITY_GRAPH_CAP
  const keep = options.keep ?? new Set<number>()
  // Stable sort: ties keep the order the service gave (most memories, then name).
  const ranked = [...data.entities].sort((a, b) => b.unit_count - a.unit_count)
  const kept = ranked.filter((e) => keep.has(e.id))
  const chosen = new Set(kept.map((e) => e.id))
  for (const e of ranked) if (chosen.size < Math.max(cap, kept.length) && !chosen.has(e.id)) chosen.add(e.id)
  const entities = ranked.filter((e) => chosen.has(e.id))

  const seen = new Set<string>()
  const relations = data.edges.filter((g) => {
    const id = edgeId(g)
    if (!chosen.has(g.src_entity_id) || !chosen.has(g.dst_entity_id) || seen.has(id)) return false
    seen.add(id)
    return true
  })

  const groups = connectedGroups(entities, relations)
  const laid = groups.map((g) => layoutGroup(g.entities, g.relations))
  const offsets = packRows(laid.map((l) => l.size))
  const nodes: EntityGraphNode[] = []
  const edges: EntityGraphEdge[] = []
  laid.forEach((l, i) => {
    const at = offsets[i]!
    const move = (p: Point): Point => ({ x: p.x + at.x, y: p.y + at.y })
    for (const n of l.nodes) nodes.push({ ...n, position: move(n.position) })
    for (const e of l.edges) edges.push({ ...e, points: e.points.map(move), label: move(e.label) })
  })
  return { nodes, edges, total: data.entities.length }
}

type Relation = EntityGraphData['edges'][number]

function edgeId(g: Relation): string {
  return `${g.src_entity_id}-${g.rel_type}-${g.dst_entity_id}`
}

/** Entities joined by relations, biggest group first; within a group, the input order. */
function connectedGroups(entities: Entity[], relations: Relation[]) {
  const parent = new Map(entities.map((e) => [e.id, e.id]))
  const root = (id: number): number => {
    let r = id
    while (parent.get(r) !== r) r = parent.get(r)!
    parent.set(id, r) // shortens the next lookup
    return r
  }
  for (const g of relations) parent.set(root(g.src_entity_id), root(g.dst_entity_id))
  const byRoot = new Map<number, { entities: Entity[]; relations: Relation[] }>()
  for (const e of entities) {
    const r = root(e.id)
    if (!byRoot.has(r)) byRoot.set(r, { entities: [], relations: [] })
    byRoot.get(r)!.entities.push(e)
  }
  for (const g of relations) byRoot.get(root(g.src_entity_id))!.relations.push(g)
  // Stable: among groups of one size, the one holding the biggest entity comes first.
  return [...byRoot.values()].sort((a, b) => b.entities.length - a.entities.length)
}

/** One connected group laid out left to right, its corner at (0, 0). */
function layoutGroup(entities: Entity[], relations: Relation[]) {
  const sized = entities.map((e) => ({ e, ...entityNodeSize(e), tier: entityTier(e.unit_count) }))
  if (relations.length === 0) {
    const { e, width, height, tier } = sized[0]!
    return {
      nodes: [{ id: String(e.id), entity: e, position: { x: 0, y: 0 }, width, height, tier }],
      edges: [],
      size: { width, height },
    }
  }
  // dagre's own route for a relation of an entity to itself does not touch the entity: such
  // loops are drawn here instead, right of the entity, in room reserved by widening its box.
  const loops = new Map<number, Relation[]>()
  for (const r of relations)
    if (r.src_entity_id === r.dst_entity_id) loops.set(r.src_entity_id, [...(loops.get(r.src_entity_id) ?? []), r])
  const room = (id: number) => {
    const own = loops.get(id) ?? []
    return own.length === 0 ? 0 : LOOP_OUT + 4 + Math.max(...own.map((r) => labelWidth(r.rel_type)))
  }
  // A multigraph, so two relations between the same pair (knows, friend) get separate routes.
  // Left to right: an entity's many relations then stack down the tall, narrow panel.
  const g = new dagre.graphlib.Graph({ multigraph: true })
  g.setGraph({ rankdir: 'LR', nodesep: 16, edgesep: 12, ranksep: 40, marginx: 0, marginy: 0 })
  for (const s of sized) {
    const height = Math.max(s.height, (loops.get(s.e.id)?.length ?? 0) * LOOP_STEP)
    g.setNode(String(s.e.id), { width: s.width + room(s.e.id), height })
  }
  for (const r of relations) {
    if (r.src_entity_id === r.dst_entity_id) continue
    // The label is sized so dagre keeps it clear of nodes and other labels.
    const label: EdgeLabel = { width: labelWidth(r.rel_type), height: LABEL_HEIGHT, labelpos: 'c' }
    g.setEdge(String(r.src_entity_id), String(r.dst_entity_id), label, r.rel_type)
  }
  dagre.layout(g)
  const nodes: EntityGraphNode[] = sized.map(({ e, width, height, tier }) => {
    const n = g.node(String(e.id))
    // dagre gives centres of the widened boxes; React Flow positions are top-left corners.
    const position = { x: n.x - (width + room(e.id)) / 2, y: n.y - height / 2 }
    return { id: String(e.id), entity: e, position, width, height, tier }
  })
  const byId = new Map(nodes.map((n) => [n.entity.id, n]))
  const edges: EntityGraphEdge[] = relations.map((r) => {
    const common = {
      id: edgeId(r),
      source: String(r.src_entity_id),
      target: String(r.dst_entity_id),
      rel: r.rel_type,
      weight: r.weight,
    }
    if (r.src_entity_id === r.dst_entity_id) {
      const own = loops.get(r.src_entity_id)!
      return { ...common, ...selfLoop(byId.get(r.src_entity_id)!, r.rel_type, own.indexOf(r), own.length) }
    }
    const label: EdgeLabel = g.edge(String(r.src_entity_id), String(r.dst_entity_id), r.rel_type)
    const points = (label.points ?? []).map((p) => ({ x: p.x, y: p.y }))
    return { ...common, points, label: { x: label.x ?? 0, y: label.y ?? 0 } }
  })
  // dagre leaves the graph's corner near but not always at 0 (labels): measure it.
  const xs = [...nodes.flatMap((n) => [n.position.x, n.position.x + n.width]), ...edges.flatMap(spanX)]
  const ys = [...nodes.flatMap((n) => [n.position.y, n.position.y + n.height]), ...edges.flatMap(spanY)]
  const minX = Math.min(...xs)
  const minY = Math.min(...ys)
  const shift = (p: Point): Point => ({ x: p.x - minX, y: p.y - minY })
  return {
    nodes: nodes.map((n) => ({ ...n, position: shift(n.position) })),
    edges: edges.map((e) => ({ ...e, points: e.points.map(shift), label: shift(e.label) })),
    size: { width: Math.max(...xs) - minX, height: Math.max(...ys) - minY },
  }
}

/** How far a self-relation's loop reaches right of its entity, and how far apart two loops sit. */
const LOOP_OUT = 16
const LOOP_STEP = 20

/** The `index`th of an entity's `count` self-relations: a loop off its right side, label beyond. */
function selfLoop(n: EntityGraphNode, rel: string, index: number, count: number) {
  const right = n.position.x + n.width
  const cy = n.position.y + n.height / 2 + (index - (count - 1) / 2) * LOOP_STEP
  return {
    points: [
      { x: right, y: cy - 5 },
      { x: right + LOOP_OUT, y: cy - 9 },
      { x: right + LOOP_OUT, y: cy + 9 },
      { x: right, y: cy + 5 },
    ],
    label: { x: right + LOOP_OUT + 4 + labelWidth(rel) / 2, y: cy },
  }
}

const labelWidth = (rel: string) => rel.length * 6.5 + 10
const LABEL_HEIGHT = 16
const spanX = (e: EntityGraphEdge) => [
  ...e.points.map((p) => p.x),
  e.label.x - labelWidth(e.rel) / 2,
  e.label.x + labelWidth(e.rel) / 2,
]
const spanY = (e: EntityGraphEdge) => [
  ...e.points.map((p) => p.y),
  e.label.y - LABEL_HEIGHT / 2,
  e.label.y + LABEL_HEIGHT / 2,
]

/** Top-left corners for boxes placed left to right in rows of about a square's width. */
function packRows(sizes: Array<{ width: number; height: number }>): Point[] {
  const area = sizes.reduce((sum, s) => sum + (s.width + GROUP_GAP) * (s.height + GROUP_GAP), 0)
  const rowWidth = Math.max(Math.sqrt(area), ...sizes.map((s) => s.width))
  const at: Point[] = []
  let x = 0
  let y = 0
  let rowHeight = 0
  for (const s of sizes) {
    if (x > 0 && x + s.width > rowWidth) {
      x = 0
      y += rowHeight + GROUP_GAP
      rowHeight = 0
    }
    at.push({ x, y })
    x += s.width + GROUP_GAP
    rowHeight = Math.max(rowHeight, s.height)
  }
  return at
}
