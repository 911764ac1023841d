import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JobQueue } from '../../kernel/jobs/jobQueue'
import { openMemory } from './db'
import { EntityType, LoopStatus, Sensitivity, SummaryScopeType, UnitKind, UnitState } from './enums'
import { importLines } from '../import/importer'
import { memoryMigrations } from '../migrations'
import { prunePacks } from './packHistory'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from './store'

const open: MemoryStore[] = []
const dirs: string[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.db.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function memory(now?: () => number): MemoryStore {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-memory-'))
  dirs.push(dir)
  const store = openMemory(join(dir, 'memory_p1.db'), { now })
  open.push(store)
  return store
}

function episode(store: MemoryStore, text: string, extra: Partial<Parameters<MemoryStore['createUnit']>[0]> = {}) {
  return store.createUnit({ kind: UnitKind.EPISODE, source: 'chat', payload: { user_text: text }, ...extra })
}

// Seed 002, transcribed: every table's columns and every index, in order.
const seedTables: Record<string, string[]> = {
  units: [
    'id',
    'kind',
    'occurred_at',
    'created_at',
    'updated_at',
    'source',
    'state',
    'confidence',
    'salience',
    'sensitivity',
    'pin',
    'topic_tags',
    'emotion_label',
    'emotion_intensity',
  ],
  entities: ['id', 'etype', 'name', 'normalized', 'created_at', 'updated_at'],
  entity_aliases: ['entity_id', 'alias'],
  unit_entities: ['unit_id', 'entity_id', 'role', 'weight'],
  edges: ['src_entity_id', 'rel_type', 'dst_entity_id', 'weight', 'first_seen_at', 'last_seen_at', 'evidence_unit_id'],
  unit_versions: ['unit_id', 'version', 'parent_version', 'patch_reason', 'payload_hash', 'created_at'],
  payload_episode: ['unit_id', 'user_text', 'reply_text', 'image_summary', 'context_note', 'reflection_json'],
  payload_fact: [
    'unit_id',
    'subject_entity_id',
    'predicate',
    'object_text',
    'object_entity_id',
    'valid_from',
    'valid_to',
    'evidence_unit_ids_json',
  ],
  payload_summary: ['unit_id', 'scope_type', 'scope_key', 'range_start', 'range_end', 'summary_text'],
  payload_persona: ['unit_id', 'persona_text', 'is_active'],
  payload_contract: ['unit_id', 'contract_text', 'is_active'],
  payload_capsule: ['unit_id', 'expires_at', 'capsule_json'],
  payload_loop: ['unit_id', 'status', 'due_at', 'loop_text'],
  jobs: ['id', 'kind', 'payload_json', 'status', 'run_after', 'tries', 'last_error', 'created_at', 'updated_at'],
}
const seedIndexes: Record<string, [string, string[]]> = {
  idx_units_kind_created: ['units', ['kind', 'created_at']],
  idx_units_occurred: ['units', ['occurred_at']],
  idx_units_state: ['units', ['state']],
  idx_entities_type_name: ['entities', ['etype', 'name']],
  idx_entity_aliases_alias: ['entity_aliases', ['alias']],
  idx_unit_entities_entity: ['unit_entities', ['entity_id']],
  idx_edges_src: ['edges', ['src_entity_id']],
  idx_edges_dst: ['edges', ['dst_entity_id']],
  idx_fact_subject_pred: ['payload_fact', ['subject_entity_id', 'predicate']],
  idx_summary_scope: ['payload_summary', ['scope_type', 'scope_key']],
  idx_loop_status_due: ['payload_loop', ['status', 'due_at']],
  idx_jobs_status_run_after: ['jobs', ['status', 'run_after']],
}

describe('schema (seed 002)', () => {
  it('has every table, column (in order, with type, NOT NULL and default) and index of the seed', () => {
    const { db } = memory()
    for (const [table, columns] of Object.entries(seedTables)) {
      const info = db.pragma(`table_info(${table})`) as Array<{ name: string }>
      expect(info.map((c) => c.name).slice(0, columns.length), table).toEqual(columns)
    }
    const units = db.pragma('table_info(units)') as Array<{
      name: string
      type: string
      notnull: number
      dflt_value: string | null
      pk: number
    }>
    const col = (n: string) => units.find((c) => c.name === n)!
    expect(col('id')).toMatchObject({ type: 'INTEGER', pk: 1 })
    expect(col('state')).toMatchObject({ type: 'INTEGER', notnull: 1, dflt_value: '0' })
    expect(col('confidence')).toMatchObject({ type: 'REAL', notnull: 1, dflt_value: '0.5' })
    expect(col('salience')).toMatchObject({ type: 'REAL', notnull: 1, dflt_value: '0.0' })
    const fact = db.pragma('table_info(payload_fact)') as Array<{ name: string; notnull: number }>
    expect(fact.find((c) => c.name === 'evidence_unit_ids_json')!.notnull).toBe(1)
    for (const [index, [table, columns]] of Object.entries(seedIndexes)) {
      const list = db.pragma(`index_list(${table})`) as Array<{ name: string }>
      expect(
        list.map((i) => i.name),
        index,
      ).toContain(index)
      expect((db.pragma(`index_info(${index})`) as Array<{ name: string }>).map((c) => c.name)).toEqual(columns)
    }
    // Primary keys of the link tables, and cascades back to units.
    expect(
      (db.pragma('table_info(unit_entities)') as Array<{ name: string; pk: number }>)
        .filter((c) => c.pk)
        .map((c) => c.name),
    ).toEqual(['unit_id', 'entity_id', 'role'])
    const fks = db.pragma('foreign_key_list(payload_episode)') as Array<{ table: string; on_delete: string }>
    expect(fks[0]).toMatchObject({ table: 'units', on_delete: 'CASCADE' })
    // The PRAGMAs of the seed.
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('synchronous', { simple: true })).toBe(1)
    expect(db.pragma('temp_store', { simple: true })).toBe(2)
    // FTS5 trigram, the stemmed word index and sqlite-vec exist.
    const virtuals = db.prepare("SELECT name, sql FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'").all() as Array<{
      name: string
      sql: string
    }>
    expect(virtuals.find((v) => v.name === 'units_fts')!.sql).toContain('trigram')
    expect(virtuals.find((v) => v.name === 'vec_units')!.sql).toMatch(/kind integer partition key/)
    expect(virtuals.find((v) => v.name === 'units_words')!.sql).toContain('porter')
    expect(db.pragma('user_version', { simple: true })).toBe(memoryMigrations.length)
  })

  it('fixes the seed enum values', () => {
    expect(UnitKind).toEqual({ EPISODE: 1, FACT: 2, SUMMARY: 3, PERSONA: 4, CONTRACT: 5, CAPSULE: 6, LOOP: 7 })
    expect(UnitState).toEqual({ RAW: 0, VALIDATED: 1, CONSOLIDATED: 2, ARCHIVED: 3 })
    expect(Sensitivity).toEqual({ NORMAL: 0, PRIVATE: 1, SECRET: 2 })
    expect(EntityType).toEqual({ PERSON: 1, PLACE: 2, PROJECT: 3, WORK: 4, TOPIC: 5, ORG: 6 })
    expect(SummaryScopeType).toEqual({ DAILY: 1, WEEKLY: 2, PERSON: 3, TOPIC: 4, RELATIONSHIP: 5 })
  })
})

describe('versions', () => {
  it('never overwrites: each edit is a new version with parent, reason and hash; old payloads stay readable', () => {
    const store = memory()
    const id = episode(store, 'I like green tea')
    store.editPayload(id, { user_text: 'I like black tea' }, 'user corrected it')
    store.editMeta(id, { sensitivity: Sensitivity.PRIVATE }, 'marked private')
    const versions = store.versions(id)
    expect(versions.map((v) => [v.version, v.parent_version, v.patch_reason])).toEqual([
      [1, null, 'created'],
      [2, 1, 'user corrected it'],
      [3, 2, 'marked private'],
    ])
    expect(versions[0]!.payload.user_text).toBe('I like green tea')
    expect(versions[1]!.payload.user_text).toBe('I like black tea')
    expect(new Set(versions.map((v) => v.payload_hash)).size).toBe(3)
    expect(store.requireUnit(id).version).toBe(3)
    // Search follows the current text.
    expect(store.db.prepare('SELECT rowid FROM units_fts WHERE units_fts MATCH \'"black"\'').pluck().all()).toEqual([
      id,
    ])
    expect(store.db.prepare('SELECT rowid FROM units_fts WHERE units_fts MATCH \'"green"\'').pluck().all()).toEqual([])
  })

  it('refuses fields the kind does not have', () => {
    const store = memory()
    const id = episode(store, 'hello')
    expect(() => store.editPayload(id, { loop_text: 'x' }, 'bad')).toThrow(/no field loop_text/)
  })
})

describe('jobs in the memory database', () => {
  it('claims with a lease, backs off exponentially, dead-letters after the cap, reclaims expired leases', () => {
    let now = 1000
    const store = memory()
    const queue = new JobQueue(store.db, { maxTries: 3, backoffSeconds: 10, leaseSeconds: 60, now: () => now })
    const id = queue.enqueue('reflect', { unit_id: 1 }, { dedupeKey: 'reflect:1' })
    expect(queue.enqueue('reflect', { unit_id: 1 }, { dedupeKey: 'reflect:1' })).toBe(id)
    const job = queue.claim()!
    expect(job).toMatchObject({ id, tries: 1 })
    expect(queue.claim()).toBeNull()
    expect(queue.fail(id, 'boom')).toBe('retry')
    expect(queue.get(id)).toMatchObject({ status: 0, run_after: 1010, last_error: 'boom' })
    expect(queue.claim()).toBeNull()
    now = 1010
    queue.claim()
    expect(queue.fail(id, 'boom 2')).toBe('retry')
    expect(queue.get(id)!.run_after).toBe(1030) // 10 s, then 20 s
    now = 1030
    queue.claim()
    expect(queue.fail(id, 'boom 3')).toBe('dead')
    expect(queue.get(id)).toMatchObject({ status: 3, last_error: 'boom 3' })
    // A claim whose worker died comes back once its lease runs out.
    const other = queue.enqueue('embed', { unit_id: 2 })
    queue.claim()
    expect(queue.reclaimExpired()).toBe(0)
    now += 61
    expect(queue.reclaimExpired()).toBe(1)
    expect(queue.claim()!.id).toBe(other)
  })
})

describe('MemoryPack', () => {
  function seeded() {
    const store = memory()
    store.createUnit({ kind: UnitKind.PERSONA, payload: { persona_text: 'You are Mika, a calm librarian.' } })
    store.createUnit({ kind: UnitKind.CONTRACT, payload: { contract_text: 'Never give medical advice.' } })
    store.createUnit({
      kind: UnitKind.LOOP,
      payload: { status: LoopStatus.OPEN, loop_text: 'Ask how the dentist visit went' },
    })
    for (let i = 0; i < 200; i++) episode(store, `Filler conversation number ${i} about the weather and trains.`)
    const tea = episode(store, 'My favourite drink is jasmine tea from Fujian.')
    const secret = episode(store, 'My bank password hint is jasmine.', { sensitivity: Sensitivity.SECRET })
    const archived = episode(store, 'I used to drink jasmine tea daily.', { state: UnitState.ARCHIVED })
    return { store, tea, secret, archived }
  }
  const ids = (pack: ReturnType<typeof buildPack>) => pack.sections.flatMap((s) => s.items.map((i) => i.unit_id))

  it('always holds persona and contract, finds the relevant episode, keeps secrets and archives out', () => {
    const { store, tea, secret, archived } = seeded()
    const pack = buildPack(store, { query: 'What jasmine drink do I like?', budget: 500, path: null })
    expect(pack.sections.map((s) => s.kind)).toEqual(expect.arrayContaining(['persona', 'contract', 'episodes']))
    expect(ids(pack)).toContain(tea)
    expect(ids(pack)).not.toContain(secret)
    expect(ids(pack)).not.toContain(archived)
    expect(pack.text).toContain('jasmine tea from Fujian')
    const item = pack.sections.find((s) => s.kind === 'episodes')!.items.find((i) => i.unit_id === tea)!
    expect(item.why).toMatch(/keyword|vector/)
    // Asked explicitly, the secret may come in.
    const asked = buildPack(store, { query: 'tell me my secret jasmine hint', budget: 500, path: null })
    expect(ids(asked)).toContain(secret)
  })

  it('never exceeds the budget, however small', () => {
    const { store } = seeded()
    for (const budget of [1, 10, 30, 60, 120, 400, 2000]) {
      const pack = buildPack(store, { query: 'jasmine trains weather dentist', budget, path: null })
      expect(pack.tokens).toBeLessThanOrEqual(budget)
    }
  })

  it('finds Japanese text through trigram search', () => {
    const store = memory()
    const id = episode(store, '来週、京都の嵐山に紅葉を見に行く予定です。')
    for (let i = 0; i < 50; i++) episode(store, `関係のない会話 ${i}`)
    const pack = buildPack(store, { query: '嵐山の紅葉はどうだった?', budget: 300, path: null })
    expect(ids(pack)).toContain(id)
  })

  it('only admits units from the active path, derived units only when all their evidence is on it', () => {
    const store = memory()
    const a = episode(store, 'On branch A I adopted a cat named Pepper.', { origin_node_id: 'node-a' })
    const b = episode(store, 'On branch B I adopted a dog named Pepper.', { origin_node_id: 'node-b' })
    const fact = store.createUnit({
      kind: UnitKind.FACT,
      evidence: [b],
      payload: { predicate: 'owns', object_text: 'a dog named Pepper', evidence_unit_ids_json: JSON.stringify([b]) },
    })
    const onA = buildPack(store, { query: 'Pepper adopted', budget: 500, path: new Set(['root', 'node-a']) })
    expect(ids(onA)).toContain(a)
    expect(ids(onA)).not.toContain(b)
    expect(ids(onA)).not.toContain(fact)
    const onB = buildPack(store, { query: 'Pepper adopted', budget: 500, path: new Set(['root', 'node-b']) })
    expect(ids(onB)).toEqual(expect.arrayContaining([b, fact]))
    expect(ids(onB)).not.toContain(a)
    // Promoted by the user, A's episode is remembered everywhere.
    store.editMeta(a, { is_global: true }, 'promoted')
    expect(ids(buildPack(store, { query: 'Pepper adopted', budget: 500, path: new Set(['node-b']) }))).toContain(a)
  })
})

describe('import', () => {
  it('stores each line as an episode keeping its id, accepts ISO and epoch times, skips repeats and bad lines', () => {
    const store = memory()
    const lines = [
      JSON.stringify({
        id: 'm1',
        speaker: 'Caroline',
        text: 'I went to a support group yesterday.',
        time: '2023-05-08T13:56:00Z',
      }),
      JSON.stringify({ id: 'm2', speaker: 'Melanie', text: 'I painted a sunrise last year.', time: 1683554160 }),
      'not json',
      JSON.stringify({ id: 'm3', speaker: 'x', text: 'y', time: 'someday' }),
    ].join('\n')
    const first = importLines(store, lines)
    expect(first).toMatchObject({ imported: 2, skipped: 2 })
    expect(first.errors).toHaveLength(2)
    const unit = store.requireUnit(first.unitIds[0]!)
    expect(unit).toMatchObject({
      kind: UnitKind.EPISODE,
      external_ref: 'm1',
      occurred_at: 1683554160,
      source: 'import',
    })
    expect(store.text(unit)).toBe('Caroline: I went to a support group yesterday.')
    expect(store.refs(unit)).toEqual([{ type: 'external', id: 'm1' }])
    expect(importLines(store, lines)).toMatchObject({ imported: 0, skipped: 4 })
    // FTS and vectors are ready at once.
    const pack = buildPack(store, { query: 'When did Melanie paint a sunrise?', budget: 200, path: null })
    expect(pack.sections.flatMap((s) => s.items).some((i) => i.refs.some((r) => r.id === 'm2'))).toBe(true)
  })
})

describe('pack history', () => {
  it('keeps the latest packs of a node and the latest overall', () => {
    const store = memory()
    const save = (node: string) => {
      store
        .prepare(
          `INSERT INTO memory_packs (node_id, flow_id, query, budget_tokens, tokens, pack_json, created_at)
           VALUES (?, 'f', 'q', 10, 1, '{}', 0)`,
        )
        .run(node)
      prunePacks(store, node, 150)
    }
    for (let i = 0; i < 5; i++) save('again')
    const ids = (node: string) =>
      (
        store.prepare('SELECT id FROM memory_packs WHERE node_id = ? ORDER BY id').all(node) as Array<{ id: number }>
      ).map((r) => r.id)
    expect(ids('again')).toEqual([3, 4, 5])
    for (let i = 6; i <= 200; i++) save(`n${i}`)
    // At pack #200 the sweep kept the latest 150: #51 onwards.
    expect(ids('again')).toEqual([])
    expect(ids('n50')).toEqual([])
    expect(ids('n51')).toEqual([51])
  })
})
