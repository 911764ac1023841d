import type { ExternalMessageInput } from '@shared/contract'
import type { Language } from '../../kernel/language'
import { UnitKind } from '../store/enums'
import { nowSeconds, type MemoryStore } from '../store/store'

/** Where a notification or meta request stands (migration 0011 says what each means). */
export const RequestStatus = { waiting: 0, answering: 1, replied: 2, done: 3, failed: 4 } as const

/** What the persona is to answer, kept with the request until it has. */
export type StoredRequest = ExternalMessageInput & { language: Language }

export interface OpenRequest {
  unit_id: number
  request: StoredRequest
  status: number
  tries: number
  run_after: number
  node_id: string | null
}

/** Stores the request beside its placeholder unit; call inside the transaction that creates the unit. */
export function recordRequest(store: MemoryStore, unitId: number, request: StoredRequest): void {
  const now = nowSeconds()
  store
    .prepare(
      `INSERT INTO external_requests (unit_id, type, request_json, run_after, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(unitId, request.type, JSON.stringify(request), now, now, now)
}

/** Every request not yet done or failed, oldest first (what a restart finishes). */
export function openRequests(store: MemoryStore): OpenRequest[] {
  const rows = store
    .prepare(
      `SELECT unit_id, request_json, status, tries, run_after, node_id FROM external_requests
       WHERE status < ${RequestStatus.done} ORDER BY unit_id`,
    )
    .all() as Array<Omit<OpenRequest, 'request'> & { request_json: string }>
  return rows.map(({ request_json, ...row }) => ({ ...row, request: JSON.parse(request_json) as StoredRequest }))
}

/** One request, open or not; null once its unit was deleted. */
export function findRequest(store: MemoryStore, unitId: number): OpenRequest | null {
  const row = store
    .prepare('SELECT unit_id, request_json, status, tries, run_after, node_id FROM external_requests WHERE unit_id = ?')
    .get(unitId) as (Omit<OpenRequest, 'request'> & { request_json: string | null }) | undefined
  if (!row?.request_json) return null
  const { request_json, ...rest } = row
  return { ...rest, request: JSON.parse(request_json) as StoredRequest }
}

/** Waiting → answering; false when it is not waiting (answered, given up, or being answered already). */
export function claimRequest(store: MemoryStore, unitId: number): boolean {
  return (
    store
      .prepare(
        `UPDATE external_requests SET status = ${RequestStatus.answering}, updated_at = ?
         WHERE unit_id = ? AND status = ${RequestStatus.waiting}`,
      )
      .run(nowSeconds(), unitId).changes === 1
  )
}

/** Back to waiting untouched: the app is stopping, or the process answering it died; neither is the model's failure. */
export function releaseRequest(store: MemoryStore, unitId: number): void {
  setStatus(store, unitId, RequestStatus.waiting)
}

/** The model failed: waits until `runAfter` (epoch seconds) for another try, counted. */
export function retryRequestLater(store: MemoryStore, unitId: number, error: string, runAfter: number): number {
  return store
    .prepare(
      `UPDATE external_requests SET status = ${RequestStatus.waiting}, tries = tries + 1, last_error = ?,
       run_after = ?, updated_at = ? WHERE unit_id = ? RETURNING tries`,
    )
    .pluck()
    .get(error, runAfter, nowSeconds(), unitId) as number
}

/** Given up: the reason stays, the request's words go. */
export function failRequest(store: MemoryStore, unitId: number, error: string): void {
  store
    .prepare(
      `UPDATE external_requests SET status = ${RequestStatus.failed}, tries = tries + 1, last_error = ?,
       request_json = NULL, updated_at = ? WHERE unit_id = ?`,
    )
    .run(error, nowSeconds(), unitId)
}

/** The reply is in the episode; the External-flow node planned for it is `nodeId`. Inside the reply's transaction. */
export function markReplied(store: MemoryStore, unitId: number, nodeId: string): void {
  store
    .prepare(
      `UPDATE external_requests SET status = ${RequestStatus.replied}, node_id = ?, updated_at = ? WHERE unit_id = ?`,
    )
    .run(nodeId, nowSeconds(), unitId)
}

/** Answered and shown: the request's words go (a meta request's were never memory). */
export function markDone(store: MemoryStore, unitId: number): void {
  store
    .prepare(
      `UPDATE external_requests SET status = ${RequestStatus.done}, request_json = NULL, last_error = NULL,
       updated_at = ? WHERE unit_id = ?`,
    )
    .run(nowSeconds(), unitId)
}

function setStatus(store: MemoryStore, unitId: number, status: number): void {
  store
    .prepare('UPDATE external_requests SET status = ?, updated_at = ? WHERE unit_id = ?')
    .run(status, nowSeconds(), unitId)
}

/**
 * The External-flow node answering the request, named before it is written: a restart answers
 * into it, never beside it. The placeholder episode comes from that node, as a chat turn's does:
 * the node's own reply does not remember it (its question), the turns below it and other
 * conversations do, and a Regenerate beside it (another branch) does not either.
 */
export function setRequestNode(store: MemoryStore, unitId: number, node: { nodeId: string; flowId: string }): void {
  store.db
    .transaction(() => {
      store
        .prepare('UPDATE external_requests SET node_id = ?, updated_at = ? WHERE unit_id = ?')
        .run(node.nodeId, nowSeconds(), unitId)
      store
        .prepare('UPDATE units SET origin_node_id = ?, origin_flow_id = ? WHERE id = ?')
        .run(node.nodeId, node.flowId, unitId)
    })
    .immediate()
}

/** What the placeholder episode keeps as the user's side: a meta request's words are instructions, not something said. */
export function episodeUserText(request: StoredRequest): string {
  return request.type === 'meta_request' ? '[redacted]' : request.text
}

/** A request a node answered, as its episode keeps it once the request's own words are gone. */
export interface AnsweredRequest {
  type: StoredRequest['type']
  /** The episode's user side: a notification's text, `[redacted]` for a meta request (episodeUserText). */
  text: string
  imageSummary: string | null
}

/**
 * The request the node answered, from the episode that came from it (setRequestNode, or a
 * Regenerate's: keepAnswerAgain); an older release named only the request's node. Null: the node
 * answered no program's request.
 */
export function requestAnsweredIn(store: MemoryStore, nodeId: string): AnsweredRequest | null {
  const episode = (unit: string) =>
    store
      .prepare(
        `SELECT u.source AS type, p.user_text AS text, p.image_summary AS imageSummary
         FROM units u JOIN payload_episode p ON p.unit_id = u.id
         WHERE ${unit} AND u.kind = ${UnitKind.EPISODE} AND u.source IN ('notification', 'meta_request')
         ORDER BY u.id LIMIT 1`,
      )
      .get(nodeId) as AnsweredRequest | undefined
  return (
    episode('u.origin_node_id = ?') ??
    episode('u.id = (SELECT unit_id FROM external_requests WHERE node_id = ? LIMIT 1)') ??
    null
  )
}

/**
 * Requests answered in a node whose placeholder episode has no origin: kept by a release before
 * the episode took its answering node as origin (its own reply's pack then remembered it).
 */
export function unplacedAnswers(store: MemoryStore): Array<{ unit_id: number; node_id: string }> {
  return store
    .prepare(
      `SELECT r.unit_id, r.node_id FROM external_requests r JOIN units u ON u.id = r.unit_id
       WHERE r.node_id IS NOT NULL AND u.origin_node_id IS NULL`,
    )
    .all() as Array<{ unit_id: number; node_id: string }>
}

/** The request's episode from the node that still has no reply (its answer was stopped); null if none. */
export function unansweredEpisodeFrom(store: MemoryStore, nodeId: string): number | null {
  const id = store
    .prepare(
      `SELECT u.id FROM units u JOIN payload_episode p ON p.unit_id = u.id
       WHERE u.origin_node_id = ? AND u.kind = ${UnitKind.EPISODE} AND u.source IN ('notification', 'meta_request')
       AND p.reply_text IS NULL ORDER BY u.id LIMIT 1`,
    )
    .pluck()
    .get(nodeId) as number | undefined
  return id ?? null
}
