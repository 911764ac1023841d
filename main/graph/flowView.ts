import type { Connection, Flow, FlowMember, FlowPage, Node } from '@shared/contract'
import { flowOf, sortConnections, toMember, type FlowRow, type GraphStore } from './graphStore'

/**
 * How a window opens a big flow without reading it whole: the members around its newest turn
 * with their content first (`around`), then every member in pages (`page`), newest first, and
 * the content of other cards only when they come into view (`GraphStore.nodesByIds`). Each
 * read costs what it returns, so the first paint of a 50,000-card flow costs what a 2,000-card
 * one does.
 */

/** Members the first answer holds at most, however large the view: it must stay small. */
const AROUND_MAX = 2000

type MemberRow = [id: string, index: number, x: number | null, y: number | null, pinned: number]

/** The flow's size and how many members wait for the automatic layout (no stored place): two lookups, no scan. */
export function flowCounts(store: GraphStore, row: FlowRow): { total: number; unplaced: number } {
  // A member is placed with both coordinates or neither; the place index finds the unplaced ones.
  const unplaced = store.db
    .prepare('SELECT count(*) FROM flow_nodes INDEXED BY flow_nodes_by_place WHERE flow_id = ? AND y IS NULL')
    .pluck()
    .get(row.id) as number
  return { total: row.node_count, unplaced }
}

/** Members added last that the newest turn is looked for among (by time: a shared node keeps its own). */
const NEWEST_AMONG = 256

/**
 * The newest turn by time, where a window opens; null in an empty flow. Looked for among the
 * members added last, not the whole flow: sorting 50,000 members by time took 0.5–0.8 s, and a
 * turn is added as it is written, so the newest is among the last added.
 */
export function newestMember(store: GraphStore, flowId: string): string | null {
  return (
    (store.db
      .prepare(
        `SELECT n.id FROM (SELECT node_id, idx FROM flow_nodes WHERE flow_id = ? ORDER BY idx DESC LIMIT ?) m
         JOIN nodes n ON n.id = m.node_id ORDER BY n.timestamp DESC, m.idx DESC LIMIT 1`,
      )
      .pluck()
      .get(flowId, NEWEST_AMONG) as string | undefined) ?? null
  )
}

/**
 * The members within `view` of the focus (a rectangle twice the view's size centred on it),
 * nearest first, and the far ends of their connections, so every line drawn from a card in
 * view has both its cards. With their connections and content.
 */
export function around(
  store: GraphStore,
  row: FlowRow,
  focusId: string,
  view: { width: number; height: number },
): { flow: Flow; nodes: Node[] } {
  const flowId = row.id
  const { at, chain } = placeOf(store, flowId, focusId)
  const near = store.db
    .prepare(
      `SELECT node_id, idx, x, y, pinned FROM flow_nodes INDEXED BY flow_nodes_by_place
       WHERE flow_id = ? AND y BETWEEN ? AND ? AND x BETWEEN ? AND ?
       ORDER BY abs(y - ?) + abs(x - ?) LIMIT ?`,
    )
    .raw(true)
    .all(
      flowId,
      at.y - view.height,
      at.y + view.height,
      at.x - view.width,
      at.x + view.width,
      at.y,
      at.x,
      AROUND_MAX,
    ) as MemberRow[]
  const members = new Map<string, FlowMember>()
  for (const r of near) members.set(r[0], toMember(...r))
  for (const m of chain) members.set(m.id, m)
  const connections = touching(store, flowId, [...members.keys()])
  const farEnds = new Set<string>()
  for (const c of connections) for (const end of [c.from, c.to]) if (!members.has(end)) farEnds.add(end)
  for (const m of membersByIds(store, flowId, [...farEnds])) members.set(m.id, m)
  const ordered = [...members.values()].sort((a, b) => a.index - b.index)
  const indexOf = new Map(ordered.map((m) => [m.id, m.index]))
  return {
    flow: flowOf(row, ordered, sortConnections(connections, indexOf)),
    nodes: store.nodesByIds([...members.keys()]),
  }
}

/** Parents walked up from a turn the canvas has not placed yet, looking for a placed one. */
const PLACE_WALK_MAX = 100

/**
 * Where the canvas shows the focus: its stored place, else (a turn written since the flow was
 * laid out, placed by the canvas below its parent) the place of its nearest placed ancestor.
 * `chain` is the focus and the unplaced ancestors walked through, which the window needs to
 * place them.
 */
function placeOf(
  store: GraphStore,
  flowId: string,
  focusId: string,
): { at: { x: number; y: number }; chain: FlowMember[] } {
  const chain: FlowMember[] = []
  for (let id: string | undefined = focusId; id && chain.length < PLACE_WALK_MAX;) {
    const member = store.member(flowId, id)
    if (!member) break
    chain.push(member)
    if (member.position) return { at: member.position, chain }
    id = store.parentIds(flowId, id)[0]
  }
  return { at: { x: 0, y: 0 }, chain }
}

/** Members with an index below `before` (every one when null), newest first, and the connections into them. */
export function page(store: GraphStore, flowId: string, before: number | null, limit: number): FlowPage {
  const rows = store.db
    .prepare(
      `SELECT node_id, idx, x, y, pinned FROM flow_nodes WHERE flow_id = ? AND idx < ? ORDER BY idx DESC LIMIT ?`,
    )
    .raw(true)
    .all(flowId, before ?? Number.MAX_SAFE_INTEGER, limit) as MemberRow[]
  const members = rows.map((r) => toMember(...r))
  const connections = store.db
    .prepare(
      `SELECT source_id, target_id, label FROM connections INDEXED BY connections_by_target
       WHERE flow_id = ? AND target_id IN (SELECT value FROM json_each(?))`,
    )
    .raw(true)
    .all(flowId, JSON.stringify(members.map((m) => m.id))) as Array<[string, string, string | null]>
  return {
    members,
    connections: connections.map(([from, to, label]) => (label === null ? { from, to } : { from, to, label })),
    next: rows.length === limit ? rows[rows.length - 1]![1] : null,
  }
}

/** Every connection with either end among these members. */
function touching(store: GraphStore, flowId: string, ids: readonly string[]): Connection[] {
  const rows = store.db
    .prepare(
      `SELECT source_id, target_id, label FROM connections INDEXED BY connections_by_target
         WHERE flow_id = @flow AND target_id IN (SELECT value FROM json_each(@ids))
       UNION
       SELECT source_id, target_id, label FROM connections
         WHERE flow_id = @flow AND source_id IN (SELECT value FROM json_each(@ids))`,
    )
    .raw(true)
    .all({ flow: flowId, ids: JSON.stringify(ids) }) as Array<[string, string, string | null]>
  return rows.map(([from, to, label]) => (label === null ? { from, to } : { from, to, label }))
}

function membersByIds(store: GraphStore, flowId: string, ids: readonly string[]): FlowMember[] {
  if (ids.length === 0) return []
  const rows = store.db
    .prepare(
      `SELECT node_id, idx, x, y, pinned FROM flow_nodes
       WHERE flow_id = ? AND node_id IN (SELECT value FROM json_each(?))`,
    )
    .raw(true)
    .all(flowId, JSON.stringify(ids)) as MemberRow[]
  return rows.map((r) => toMember(...r))
}
