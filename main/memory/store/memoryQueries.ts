import type { MemoryPack, MemoryStatus, MemoryUnitDetail, Parsed } from '@shared/contract'
import type { Db } from '../../db/open'
import { entityTypeName, kindValue, relationName, stateValue } from './enums'
import { memoryControl, usageOn } from './memoryBreaker'
import { nowSeconds, type MemoryStore, type UnitRow } from './store'

// The memory inspector's reads: plain indexed SQLite over one persona's store.

/** Units by kind, state, entity, time and text, newest first, with the total for paging. */
export function listUnits(store: MemoryStore, input: Parsed<'memory_list_units'>) {
  const where: string[] = []
  const params: Array<string | number> = []
  const add = (sql: string, value: string | number) => {
    where.push(sql)
    params.push(value)
  }
  if (input.kind) add('u.kind = ?', kindValue(input.kind))
  if (input.state) add('u.state = ?', stateValue(input.state))
  if (input.entity_id !== undefined)
    add('u.id IN (SELECT unit_id FROM unit_entities WHERE entity_id = ?)', input.entity_id)
  if (input.from !== undefined) add('u.occurred_at >= ?', input.from)
  if (input.to !== undefined) add('u.occurred_at < ?', input.to)
  const q = input.query?.trim()
  // Trigram FTS needs 3+ characters; shorter text falls back to a scan.
  if (q && [...q].length >= 3)
    add('u.id IN (SELECT rowid FROM units_fts WHERE units_fts MATCH ?)', `"${q.replace(/"/g, '""')}"`)
  else if (q) add("u.id IN (SELECT rowid FROM units_fts WHERE text LIKE '%' || ? || '%')", q)
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
  const total = store.db
    .prepare(`SELECT count(*) FROM units u ${clause}`)
    .pluck()
    .get(...params) as number
  const rows = store.db
    .prepare(
      `SELECT u.* FROM units u ${clause} ORDER BY coalesce(u.occurred_at, u.created_at) DESC, u.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...params, input.limit ?? 100, input.offset ?? 0) as UnitRow[]
  return { units: rows.map((u) => store.toContract(u)), total }
}

/** One unit with its payload, versions, evidence, origin and entities. */
export function unitDetail(store: MemoryStore, unitId: number): MemoryUnitDetail {
  const unit = store.requireUnit(unitId)
  const evidence = store
    .evidenceOf(unitId)
    .map((id) => store.unit(id))
    .filter((u): u is UnitRow => u !== null)
  const entities = store.db
    .prepare(
      'SELECT e.id, e.name, ue.role FROM unit_entities ue JOIN entities e ON e.id = ue.entity_id WHERE ue.unit_id = ?',
    )
    .all(unitId) as Array<{ id: number; name: string; role: number }>
  const roles = ['', 'subject', 'object', 'mention', 'speaker']
  return {
    unit: store.toContract(unit),
    payload: store.payload(unit),
    versions: store.versions(unitId),
    evidence: evidence.map((u) => store.toContract(u)),
    refs: store.refs(unit),
    entities: entities.map((e) => ({ id: e.id, name: e.name, role: roles[e.role] ?? 'mention' })),
  }
}

/** Entities (the most mentioned first, filtered by alias) and the edges between them. */
export function entityGraph(store: MemoryStore, query?: string) {
  const q = query?.trim().toLowerCase()
  const rows = store.db
    .prepare(
      `SELECT e.id, e.etype, e.name,
         (SELECT json_group_array(alias) FROM entity_aliases a WHERE a.entity_id = e.id) AS aliases,
         (SELECT count(*) FROM unit_entities ue WHERE ue.entity_id = e.id) AS unit_count
       FROM entities e
       WHERE ? IS NULL OR e.id IN (SELECT entity_id FROM entity_aliases WHERE instr(alias, ?) > 0)
       ORDER BY unit_count DESC, e.name LIMIT 500`,
    )
    .all(q ?? null, q ?? null) as Array<{
    id: number
    etype: number
    name: string
    aliases: string
    unit_count: number
  }>
  const ids = JSON.stringify(rows.map((r) => r.id))
  const edges = store.db
    .prepare(
      `SELECT * FROM edges WHERE src_entity_id IN (SELECT value FROM json_each(?))
       OR dst_entity_id IN (SELECT value FROM json_each(?)) LIMIT 2000`,
    )
    .all(ids, ids) as Array<{
    src_entity_id: number
    rel_type: number
    dst_entity_id: number
    weight: number
    first_seen_at: number | null
    last_seen_at: number | null
    evidence_unit_id: number | null
  }>
  return {
    entities: rows.map((r) => ({
      id: r.id,
      etype: entityTypeName(r.etype),
      name: r.name,
      aliases: JSON.parse(r.aliases) as string[],
      unit_count: r.unit_count,
    })),
    edges: edges.map((e) => ({ ...e, rel_type: relationName(e.rel_type) })),
  }
}

/** The packs injected with a node's replies, newest first. */
export function packsForNode(store: MemoryStore, nodeId: string) {
  const rows = store.db
    .prepare(
      'SELECT created_at, query, budget_tokens, pack_json FROM memory_packs WHERE node_id = ? ORDER BY created_at DESC, id DESC',
    )
    .all(nodeId) as Array<{ created_at: number; query: string; budget_tokens: number; pack_json: string }>
  return rows.map((r) => ({
    created_at: r.created_at,
    query: r.query,
    budget_tokens: r.budget_tokens,
    pack: JSON.parse(r.pack_json) as MemoryPack,
  }))
}

/** Unit count and job counts by status. */
/** Today's spend and whether memory jobs may call the model (memory_status's `spend` and `paused`). */
export function spendStatus(db: Db, now: number): Pick<MemoryStatus, 'spend' | 'paused'> {
  const c = memoryControl(db)
  const today = usageOn(db, now)
  const overBudget = c.daily_token_budget !== null && today.tokens >= c.daily_token_budget
  return {
    spend: { calls_today: today.calls, tokens_today: today.tokens, daily_token_budget: c.daily_token_budget },
    paused: {
      by: c.paused_by ?? (overBudget ? 'budget' : null),
      reason: c.paused_reason,
      model: c.paused_model,
    },
  }
}

export function memoryStatus(store: MemoryStore) {
  const db = store.db
  const units = db.prepare('SELECT count(*) FROM units').pluck().get() as number
  const jobs = db
    .prepare(
      // One slice of the (status, run_after) index each, rather than a scan of every job.
      `SELECT (SELECT count(*) FROM jobs WHERE status = 0) AS queued,
              (SELECT count(*) FROM jobs WHERE status = 0 AND run_after <= ?) AS due,
              (SELECT count(*) FROM jobs WHERE status = 1) AS running,
              (SELECT count(*) FROM jobs WHERE status = 2) AS done,
              (SELECT count(*) FROM jobs WHERE status = 3) AS failed`,
    )
    .get(nowSeconds()) as { queued: number; due: number; running: number; done: number; failed: number }
  return { units, jobs }
}
