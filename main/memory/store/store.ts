import { hash } from 'node:crypto'
import type { Statement } from 'better-sqlite3'
import type { MemoryRef, MemoryUnit } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../../db/open'
import { statements } from '../../db/statements'
import { tokenCount } from '../../kernel/tokens'
import { embedLocal, vectorBlob } from './embedder'
import { TOLD_SOURCE, UnitKind, UnitState, kindName, sensitivityName, stateName, type Sensitivity } from './enums'
import { deleteModelVector, markDirty } from './modelVectors'

export interface UnitRow {
  id: number
  kind: UnitKind
  occurred_at: number | null
  created_at: number
  updated_at: number
  source: string | null
  state: UnitState
  confidence: number
  salience: number
  sensitivity: Sensitivity
  pin: number
  topic_tags: string | null
  emotion_label: string | null
  emotion_intensity: number | null
  origin_node_id: string | null
  origin_flow_id: string | null
  external_ref: string | null
  is_global: number
  version: number
  tokens: number
}

export type Payload = Record<string, unknown>

/** Each kind's payload table and its columns. Only these names ever reach SQL text. */
const payloadTables: Record<UnitKind, { table: string; columns: readonly string[] }> = {
  [UnitKind.EPISODE]: {
    table: 'payload_episode',
    columns: ['user_text', 'reply_text', 'image_summary', 'context_note', 'reflection_json'],
  },
  [UnitKind.FACT]: {
    table: 'payload_fact',
    columns: [
      'subject_entity_id',
      'predicate',
      'object_text',
      'object_entity_id',
      'valid_from',
      'valid_to',
      'evidence_unit_ids_json',
    ],
  },
  [UnitKind.SUMMARY]: {
    table: 'payload_summary',
    columns: ['scope_type', 'scope_key', 'range_start', 'range_end', 'summary_text'],
  },
  [UnitKind.PERSONA]: { table: 'payload_persona', columns: ['persona_text', 'is_active'] },
  [UnitKind.CONTRACT]: { table: 'payload_contract', columns: ['contract_text', 'is_active'] },
  [UnitKind.CAPSULE]: { table: 'payload_capsule', columns: ['expires_at', 'capsule_json'] },
  [UnitKind.LOOP]: { table: 'payload_loop', columns: ['status', 'due_at', 'loop_text'] },
}

/** Unit metadata a caller may set; the rest is managed here. */
export interface UnitMeta {
  occurred_at?: number | null
  source?: string | null
  state?: UnitState
  confidence?: number
  salience?: number
  sensitivity?: Sensitivity
  pin?: boolean
  topic_tags?: string[] | null
  emotion_label?: string | null
  emotion_intensity?: number | null
  is_global?: boolean
}

export interface NewUnit extends UnitMeta {
  kind: UnitKind
  payload: Payload
  origin_node_id?: string | null
  origin_flow_id?: string | null
  external_ref?: string | null
  /** Episodes this unit was derived from (facts, summaries, loops). */
  evidence?: number[]
}

/** How many `vec_changes` rows are kept. */
const VECTOR_LOG_KEEP = 50_000

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/** An episode's `context_note` starting so: a group scene's turn another member spoke (memory.recordExchange). */
export const REPLY_BY = 'reply by: '

/**
 * One persona's memory database: units with their payloads, versions, search indexes.
 * Every change to a unit writes a new `unit_versions` row holding the payload as it now is,
 * so earlier versions stay readable; the payload tables hold the current one.
 */
export class MemoryStore {
  /** Compiled statements by their SQL, handed out with their result mode reset. */
  readonly prepare: (sql: string) => Statement<unknown[]>

  constructor(
    readonly db: Db,
    private readonly now: () => number = nowSeconds,
  ) {
    this.prepare = statements(db)
  }

  createUnit(input: NewUnit): number {
    return this.db
      .transaction(() => {
        const now = this.now()
        const { id } = this.prepare(
          `INSERT INTO units (kind, occurred_at, created_at, updated_at, source, state, confidence, salience,
           sensitivity, pin, topic_tags, emotion_label, emotion_intensity, origin_node_id, origin_flow_id,
           external_ref, is_global)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        ).get(
          input.kind,
          input.occurred_at ?? now,
          now,
          now,
          input.source ?? null,
          input.state ?? UnitState.RAW,
          input.confidence ?? 0.5,
          input.salience ?? 0,
          input.sensitivity ?? 0,
          input.pin ? 1 : 0,
          input.topic_tags ? input.topic_tags.join(',') : null,
          input.emotion_label ?? null,
          input.emotion_intensity ?? null,
          input.origin_node_id ?? null,
          input.origin_flow_id ?? null,
          input.external_ref ?? null,
          input.is_global ? 1 : 0,
        ) as { id: number }
        const { table, columns } = payloadTables[input.kind]
        // Fields left out take the column's default (is_active = 1).
        const given = columns.filter((c) => input.payload[c] !== undefined)
        this.prepare(
          `INSERT INTO ${table} (unit_id${given.map((c) => `, ${c}`).join('')}) VALUES (?${', ?'.repeat(given.length)})`,
        ).run(id, ...given.map((c) => toSql(input.payload[c])))
        for (const e of new Set(input.evidence ?? []))
          this.prepare('INSERT OR IGNORE INTO unit_evidence (unit_id, evidence_unit_id) VALUES (?, ?)').run(id, e)
        this.reindex(id)
        this.snapshot(id, 'created', null)
        return id
      })
      .immediate()
  }

  unit(id: number): UnitRow | null {
    return (this.prepare('SELECT * FROM units WHERE id = ?').get(id) as UnitRow | undefined) ?? null
  }

  requireUnit(id: number): UnitRow {
    const unit = this.unit(id)
    if (!unit) throw new AppError('not_found', `memory unit ${id} not found`)
    return unit
  }

  payload(unit: Pick<UnitRow, 'id' | 'kind'>): Payload {
    const { table, columns } = payloadTables[unit.kind]
    return (this.prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE unit_id = ?`).get(unit.id) as Payload) ?? {}
  }

  /** A new version with the payload fields changed; the previous payload stays in `unit_versions`. */
  editPayload(id: number, patch: Payload, reason: string): void {
    this.db
      .transaction(() => {
        const unit = this.requireUnit(id)
        const { table, columns } = payloadTables[unit.kind]
        const unknown = Object.keys(patch).filter((k) => !columns.includes(k))
        if (unknown.length > 0)
          throw new AppError('bad_input', `${kindName(unit.kind)} units have no field ${unknown.join(', ')}`)
        const next = { ...this.payload(unit), ...patch }
        this.prepare(`UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE unit_id = ?`).run(
          ...columns.map((c) => toSql(next[c])),
          id,
        )
        this.prepare('UPDATE units SET updated_at = ? WHERE id = ?').run(this.now(), id)
        this.reindex(id)
        this.snapshot(id, reason, unit.version)
      })
      .immediate()
  }

  /** A new version with metadata changed (state, sensitivity, pin, reflection…). */
  editMeta(id: number, meta: UnitMeta, reason: string): void {
    this.db
      .transaction(() => {
        const unit = this.requireUnit(id)
        const set: Record<string, unknown> = {
          occurred_at: meta.occurred_at,
          source: meta.source,
          state: meta.state,
          confidence: meta.confidence,
          salience: meta.salience,
          sensitivity: meta.sensitivity,
          pin: meta.pin === undefined ? undefined : meta.pin ? 1 : 0,
          topic_tags: meta.topic_tags === undefined ? undefined : (meta.topic_tags?.join(',') ?? null),
          emotion_label: meta.emotion_label,
          emotion_intensity: meta.emotion_intensity,
          is_global: meta.is_global === undefined ? undefined : meta.is_global ? 1 : 0,
        }
        const fields = Object.entries(set).filter(([, v]) => v !== undefined)
        if (fields.length === 0) return
        this.prepare(`UPDATE units SET ${fields.map(([k]) => `${k} = ?`).join(', ')}, updated_at = ? WHERE id = ?`).run(
          ...fields.map(([, v]) => v as string | number | null),
          this.now(),
          id,
        )
        if (meta.state !== undefined || meta.sensitivity !== undefined || meta.occurred_at !== undefined)
          this.reindexVector(id)
        this.snapshot(id, reason, unit.version)
      })
      .immediate()
  }

  addEvidence(id: number, evidence: number[]): void {
    for (const e of evidence)
      this.prepare('INSERT OR IGNORE INTO unit_evidence (unit_id, evidence_unit_id) VALUES (?, ?)').run(id, e)
  }

  evidenceOf(id: number): number[] {
    return (
      this.prepare('SELECT evidence_unit_id AS e FROM unit_evidence WHERE unit_id = ? ORDER BY e').all(id) as Array<{
        e: number
      }>
    ).map((r) => r.e)
  }

  deleteUnit(id: number): boolean {
    return this.db
      .transaction(() => {
        if (!this.unit(id)) return false
        this.prepare('DELETE FROM units_fts WHERE rowid = ?').run(id)
        this.prepare('DELETE FROM units_words WHERE rowid = ?').run(id)
        this.prepare('DELETE FROM vec_units WHERE unit_id = ?').run(BigInt(id))
        this.logVectorChange(id)
        deleteModelVector(this.db, id)
        // Edges keep their pair but lose the deleted evidence.
        this.prepare('UPDATE edges SET evidence_unit_id = NULL WHERE evidence_unit_id = ?').run(id)
        this.prepare('DELETE FROM units WHERE id = ?').run(id)
        return true
      })
      .immediate()
  }

  versions(id: number): Array<{
    version: number
    parent_version: number | null
    patch_reason: string | null
    payload_hash: string | null
    created_at: number
    payload: Payload
  }> {
    const rows = this.prepare(
      'SELECT version, parent_version, patch_reason, payload_hash, created_at, payload_json FROM unit_versions WHERE unit_id = ? ORDER BY version',
    ).all(id) as Array<{
      version: number
      parent_version: number | null
      patch_reason: string | null
      payload_hash: string | null
      created_at: number
      payload_json: string | null
    }>
    return rows.map(({ payload_json, ...r }) => ({
      ...r,
      payload: payload_json ? (JSON.parse(payload_json) as Payload) : {},
    }))
  }

  /** The unit's text as search, the inspector and the MemoryPack see it. */
  text(unit: UnitRow, payload: Payload = this.payload(unit)): string {
    const s = (k: string) => (typeof payload[k] === 'string' ? (payload[k] as string) : '')
    switch (unit.kind) {
      case UnitKind.EPISODE: {
        const speaker = /^speaker: (.+)$/m.exec(s('context_note'))?.[1]
        const user = s('user_text')
        const reply = s('reply_text')
        if (speaker) return `${speaker}: ${user}`
        // A group scene's turn another member spoke: what this persona witnessed, by name.
        const by = s('context_note').startsWith(REPLY_BY) ? s('context_note').slice(REPLY_BY.length) : 'Persona'
        return [user && `User: ${user}`, reply && `${by}: ${reply}`, s('image_summary')].filter(Boolean).join('\n')
      }
      case UnitKind.FACT: {
        const object = s('object_text') || this.entityName(payload.object_entity_id as number | null) || ''
        const until = typeof payload.valid_to === 'number' ? ` (until ${isoDate(payload.valid_to)})` : ''
        // Added by hand (memory_add_unit: a program, a script) or asked in chat to be remembered
        // (requests/toldFacts.ts): what was written, not read as a subject and the predicate "is"
        // ("user is The user prefers quiet cafés", "user is likes jazz"): a sentence as it is, a
        // phrase as the user's ("user: likes jazz").
        if ((unit.source === 'user' || unit.source === TOLD_SOURCE) && payload.subject_entity_id == null)
          return `${/^\p{Ll}/u.test(object) ? 'user: ' : ''}${object}${until}`.trim()
        const subject = this.entityName(payload.subject_entity_id as number | null) ?? 'user'
        return `${subject} ${s('predicate')} ${object}${until}`.trim()
      }
      case UnitKind.SUMMARY:
        return `[${s('scope_key')}] ${s('summary_text')}`
      case UnitKind.PERSONA:
        return s('persona_text')
      case UnitKind.CONTRACT:
        return s('contract_text')
      case UnitKind.CAPSULE: {
        const raw = s('capsule_json')
        try {
          const parsed = JSON.parse(raw) as unknown
          if (parsed && typeof parsed === 'object' && 'text' in parsed)
            return String((parsed as { text: unknown }).text)
        } catch {
          // not JSON: shown as written
        }
        return raw
      }
      case UnitKind.LOOP: {
        const due = typeof payload.due_at === 'number' ? ` (due ${isoDate(payload.due_at)})` : ''
        return `${s('loop_text')}${due}${payload.status === 1 ? ' [closed]' : ''}`
      }
    }
  }

  entityName(id: number | null | undefined): string | null {
    if (id == null) return null
    const row = this.prepare('SELECT name FROM entities WHERE id = ?').get(id) as { name: string } | undefined
    return row?.name ?? null
  }

  /** The evidence of several units in one query (a pack shows the refs of each of its items). */
  evidenceOfEach(ids: readonly number[]): Map<number, number[]> {
    const out = new Map<number, number[]>()
    if (ids.length === 0) return out
    const rows = this.prepare(
      'SELECT unit_id AS u, evidence_unit_id AS e FROM unit_evidence WHERE unit_id IN (SELECT value FROM json_each(?)) ORDER BY u, e',
    ).all(JSON.stringify(ids)) as Array<{ u: number; e: number }>
    for (const { u, e } of rows) {
      const list = out.get(u)
      if (list) list.push(e)
      else out.set(u, [e])
    }
    return out
  }

  /** Where the unit came from and what backs it; `evidence` when it was read already (evidenceOfEach). */
  refs(unit: UnitRow, evidence: readonly number[] = this.evidenceOf(unit.id)): MemoryRef[] {
    const refs: MemoryRef[] = []
    if (unit.origin_node_id) refs.push({ type: 'node', id: unit.origin_node_id, flow_id: unit.origin_flow_id })
    if (unit.external_ref) refs.push({ type: 'external', id: unit.external_ref })
    for (const e of evidence) refs.push({ type: 'evidence', id: String(e) })
    return refs
  }

  toContract(unit: UnitRow, text: string = this.text(unit)): MemoryUnit {
    return {
      id: unit.id,
      kind: kindName(unit.kind),
      state: stateName(unit.state),
      sensitivity: sensitivityName(unit.sensitivity),
      pin: unit.pin === 1,
      global: unit.is_global === 1,
      source: unit.source,
      confidence: unit.confidence,
      salience: unit.salience,
      topic_tags: unit.topic_tags ? unit.topic_tags.split(',').filter(Boolean) : [],
      emotion_label: unit.emotion_label,
      emotion_intensity: unit.emotion_intensity,
      occurred_at: unit.occurred_at,
      created_at: unit.created_at,
      updated_at: unit.updated_at,
      version: unit.version,
      origin_node_id: unit.origin_node_id,
      origin_flow_id: unit.origin_flow_id,
      external_ref: unit.external_ref,
      text,
    }
  }

  /** Rewrites the unit's FTS rows (trigram and stemmed words), vector and token count from its current payload. */
  reindex(id: number): void {
    const unit = this.requireUnit(id)
    const text = this.text(unit)
    this.prepare('DELETE FROM units_fts WHERE rowid = ?').run(id)
    this.prepare('INSERT INTO units_fts (rowid, text) VALUES (?, ?)').run(id, text)
    this.prepare('DELETE FROM units_words WHERE rowid = ?').run(id)
    this.prepare('INSERT INTO units_words (rowid, text) VALUES (?, ?)').run(id, text)
    this.prepare('UPDATE units SET tokens = ? WHERE id = ?').run(tokenCount(text), id)
    this.writeVector(unit, text)
    markDirty(this.db, id, unit.kind)
  }

  reindexVector(id: number): void {
    const unit = this.requireUnit(id)
    this.writeVector(unit, this.text(unit))
  }

  private writeVector(unit: UnitRow, text: string): void {
    // sqlite-vec wants BigInt for the key, the partition key and INTEGER metadata.
    this.prepare('DELETE FROM vec_units WHERE unit_id = ?').run(BigInt(unit.id))
    this.prepare(
      'INSERT INTO vec_units (unit_id, embedding, kind, state, sensitivity, occurred_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(
      BigInt(unit.id),
      vectorBlob(embedLocal(text)),
      BigInt(unit.kind),
      BigInt(unit.state),
      BigInt(unit.sensitivity),
      BigInt(unit.occurred_at ?? unit.created_at),
    )
    this.logVectorChange(unit.id)
  }

  /** Tells every connection's in-memory vector index (vectorIndex.ts) that this unit's vector changed. */
  private logVectorChange(id: number): void {
    const { seq } = this.prepare('INSERT INTO vec_changes (unit_id) VALUES (?) RETURNING seq').get(id) as {
      seq: number
    }
    // Keep the recent changes only: an index further behind than that reloads everything.
    if (seq % 4096 === 0) this.prepare('DELETE FROM vec_changes WHERE seq <= ?').run(seq - VECTOR_LOG_KEEP)
  }

  private snapshot(id: number, reason: string, parent: number | null): void {
    const unit = this.requireUnit(id)
    const payload = this.payload(unit)
    const { version: _v, updated_at: _u, tokens: _t, ...meta } = unit
    const json = JSON.stringify({ ...payload, _meta: meta, _evidence: this.evidenceOf(id) })
    const version = parent === null ? 1 : parent + 1
    this.prepare(
      `INSERT INTO unit_versions (unit_id, version, parent_version, patch_reason, payload_hash, created_at, payload_json)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, version, parent, reason, hash('sha256', json, 'hex'), this.now(), json)
    this.prepare('UPDATE units SET version = ? WHERE id = ?').run(version, id)
  }
}

function toSql(value: unknown): string | number | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (typeof value === 'number' || typeof value === 'string') return value
  return JSON.stringify(value)
}

export function isoDate(epochSeconds: number): string {
  const day = Math.floor(epochSeconds / 86_400)
  let date = isoDays.get(day)
  if (date === undefined) {
    if (isoDays.size >= 10_000) isoDays.clear()
    date = new Date(epochSeconds * 1000).toISOString().slice(0, 10)
    isoDays.set(day, date)
  }
  return date
}

/** Dates by day number: a pack dates every episode it weighs (~100), mostly of a few days. */
const isoDays = new Map<number, string>()
