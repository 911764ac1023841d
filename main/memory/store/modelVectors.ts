import type { Db } from '../../db/open'
import { statements } from '../../db/statements'
import { vectorBlob } from './embedder'
import { UnitKind } from './enums'

/**
 * Vectors from the persona's embedding model (OpenAI, Gemini, Ollama), kept beside the local
 * hashed-n-gram ones. The local vectors stay: they need no network, so a pack never waits on
 * a provider, and they are the fallback when the model cannot be reached. The model's vectors
 * add meaning the n-grams miss ("kitten" near "cat"); the pack builder fuses both rankings.
 *
 * One model per persona database: `vec_units_model` is created with the model's width on the
 * first write; another model (or width) drops it and marks every searchable unit dirty again.
 */

/** The kinds the pack builder searches by vector. */
export const MODEL_VECTOR_KINDS = [UnitKind.EPISODE, UnitKind.FACT, UnitKind.SUMMARY] as const

export interface ModelVectorMeta {
  model: string
  dims: number
}

export function modelVectorMeta(db: Db): ModelVectorMeta | null {
  return (statements(db)('SELECT model, dims FROM model_vector_meta WHERE id = 1').get() as ModelVectorMeta) ?? null
}

/** Marks a unit's model vector stale (its text changed); kinds not searched by vector are ignored. */
export function markDirty(db: Db, unitId: number, kind: number): void {
  if ((MODEL_VECTOR_KINDS as readonly number[]).includes(kind))
    statements(db)(
      'INSERT INTO model_vector_dirty (unit_id) VALUES (?) ON CONFLICT (unit_id) DO UPDATE SET gen = gen + 1',
    ).run(unitId)
}

export function dirtyCount(db: Db): number {
  return statements(db)('SELECT count(*) FROM model_vector_dirty').pluck().get() as number
}

/** Units `model` has still to embed: every searchable one while the vectors are another model's. */
export function waitingFor(db: Db, model: string): number {
  const meta = modelVectorMeta(db)
  if (!meta || meta.model === model) return dirtyCount(db)
  return db
    .prepare(`SELECT count(*) FROM units WHERE kind IN (${MODEL_VECTOR_KINDS.join(', ')})`)
    .pluck()
    .get() as number
}

export function hasDirty(db: Db): boolean {
  return statements(db)('SELECT 1 FROM model_vector_dirty LIMIT 1').get() !== undefined
}

/**
 * Up to `limit` stale units that still exist, oldest first; rows of deleted units met on the way
 * are dropped. (Not all of them before each batch: that read the whole table each time, every
 * unit of a million-unit memory once per batch while its first embedding ran.)
 */
export function takeDirty(db: Db, limit: number): DirtyUnit[] {
  const page = db.prepare(
    `SELECT d.unit_id AS id, u.kind, d.gen FROM model_vector_dirty d LEFT JOIN units u ON u.id = d.unit_id
     WHERE d.unit_id > ? ORDER BY d.unit_id LIMIT ?`,
  )
  const drop = db.prepare('DELETE FROM model_vector_dirty WHERE unit_id = ?')
  for (let after = -1; ;) {
    const rows = page.all(after, limit) as Array<Omit<DirtyUnit, 'kind'> & { kind: number | null }>
    const gone = rows.filter((r) => r.kind === null)
    for (const r of gone) drop.run(r.id)
    if (gone.length < rows.length || rows.length < limit) return rows.filter((r): r is DirtyUnit => r.kind !== null)
    after = rows.at(-1)!.id
  }
}

export interface DirtyUnit {
  id: number
  kind: number
  /** The unit's change count when taken: a later edit keeps it dirty. */
  gen: number
}

/**
 * Writes vectors the model made and clears their units' dirty marks. A model or width other
 * than the table's starts the table afresh (and every unit must be embedded again). A null
 * vector is a text the model found nothing to read in (the word model on Japanese): its unit
 * keeps no vector, and is not asked again until its text changes.
 */
export function writeModelVectors(
  db: Db,
  model: string,
  rows: ReadonlyArray<
    DirtyUnit & { vector: readonly number[] | null; sentences?: ReadonlyArray<readonly number[] | null> }
  >,
): void {
  if (rows.length === 0) return
  const before = modelVectorMeta(db)
  const dims = rows.find((r) => r.vector)?.vector?.length ?? (before?.model === model ? before.dims : undefined)
  if (
    dims === 0 ||
    rows.some((r) => (r.vector && r.vector.length !== dims) || r.sentences?.some((v) => v && v.length !== dims))
  )
    throw new Error(`the embedding model ${model} answered vectors of different lengths`)
  db.transaction(() => {
    const meta = modelVectorMeta(db)
    // Only null vectors and no table yet: nothing to keep, nothing to start.
    if (dims !== undefined && (!meta || meta.model !== model || meta.dims !== dims)) reset(db, model, dims)
    const kept = modelVectorMeta(db)?.model === model
    const remove = db.prepare('DELETE FROM vec_units_model WHERE unit_id = ?')
    // sqlite-vec wants BigInt for the key and the partition key.
    const insert = kept ? db.prepare('INSERT INTO vec_units_model (unit_id, embedding, kind) VALUES (?, ?, ?)') : null
    const clean = db.prepare('DELETE FROM model_vector_dirty WHERE unit_id = ? AND gen = ?')
    const forgetSentences = db.prepare('DELETE FROM model_sentences WHERE unit_id = ?')
    const insertSentence = db.prepare('INSERT INTO model_sentences (unit_id, seq, embedding) VALUES (?, ?, ?)')
    for (const r of rows) {
      if (kept) remove.run(BigInt(r.id))
      if (r.vector) insert!.run(BigInt(r.id), vectorBlob(normalised(r.vector)), BigInt(r.kind))
      // A unit's sentences are replaced with its vector: an edit leaves none of the old text's.
      forgetSentences.run(r.id)
      r.sentences
        ?.filter((v) => v !== null)
        .slice(0, SENTENCES_KEPT)
        .forEach((v, seq) => insertSentence.run(r.id, seq, int8Blob(normalised(v))))
      clean.run(r.id, r.gen)
      if (kept) logChange(db, r.id)
    }
  }).immediate()
}

/**
 * Readies the memory for another model than the one its vectors are from: every searchable
 * unit is marked to embed again (its first vectors then start the table afresh). Without this a
 * memory whose units were all embedded would keep the old model's vectors until a unit changed.
 */
export function embedAllFor(db: Db, model: string): void {
  const meta = modelVectorMeta(db)
  if (!meta || meta.model === model) return
  db.prepare(
    `INSERT OR IGNORE INTO model_vector_dirty (unit_id) SELECT id FROM units WHERE kind IN (${MODEL_VECTOR_KINDS.join(', ')})`,
  ).run()
}

/** The units nearest to a query vector of the same model; empty when the table holds another model's. */
export function nearestByModel(
  db: Db,
  model: string,
  vector: readonly number[],
  kind: number,
  k: number,
): Array<{ id: number; distance: number }> {
  const meta = modelVectorMeta(db)
  if (!meta || meta.model !== model || meta.dims !== vector.length) return []
  return (
    db
      .prepare('SELECT unit_id AS id, distance FROM vec_units_model WHERE embedding MATCH ? AND k = ? AND kind = ?')
      .all(vectorBlob(normalised(vector)), k, BigInt(kind)) as Array<{ id: number | bigint; distance: number }>
  ).map((r) => ({ id: Number(r.id), distance: r.distance }))
}

/** The most sentence vectors kept for one unit (the model index keys them by unit id × this). */
export const SENTENCES_KEPT = 16

/** Forgets a deleted unit's model vector. */
export function deleteModelVector(db: Db, unitId: number): void {
  if (modelVectorMeta(db)) {
    db.prepare('DELETE FROM vec_units_model WHERE unit_id = ?').run(BigInt(unitId))
    db.prepare('DELETE FROM model_sentences WHERE unit_id = ?').run(unitId)
    logChange(db, unitId)
  }
  db.prepare('DELETE FROM model_vector_dirty WHERE unit_id = ?').run(unitId)
}

/** How many `model_vector_changes` rows are kept: an index further behind reloads everything. */
const CHANGES_KEPT = 50_000

/** Tells every connection's index of the model's vectors (modelIndex.ts) that this unit's changed. */
function logChange(db: Db, unitId: number): void {
  const seq = db
    .prepare('INSERT INTO model_vector_changes (unit_id) VALUES (?) RETURNING seq')
    .pluck()
    .get(unitId) as number
  if (seq % 4096 === 0) db.prepare('DELETE FROM model_vector_changes WHERE seq <= ?').run(seq - CHANGES_KEPT)
}

function reset(db: Db, model: string, dims: number): void {
  db.exec('DROP TABLE IF EXISTS vec_units_model')
  db.exec('DELETE FROM model_sentences')
  db.exec(
    `CREATE VIRTUAL TABLE vec_units_model USING vec0(
       unit_id integer primary key, embedding float[${dims}] distance_metric=cosine, kind integer partition key)`,
  )
  db.prepare('INSERT OR REPLACE INTO model_vector_meta (id, model, dims) VALUES (1, ?, ?)').run(model, dims)
  // Unit 0 (none has it): every index of the old vectors reloads.
  logChange(db, 0)
  db.prepare(
    `INSERT OR IGNORE INTO model_vector_dirty (unit_id) SELECT id FROM units WHERE kind IN (${MODEL_VECTOR_KINDS.join(', ')})`,
  ).run()
}

function normalised(vector: readonly number[]): Float32Array {
  const v = Float32Array.from(vector)
  let sum = 0
  for (const x of v) sum += x * x
  const n = Math.sqrt(sum) || 1
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / n
  return v
}

/** A vector as int8 with its step (each dimension ≈ q × step): what the model index searches. */
export function int8Of(v: Float32Array): { step: number; q: Int8Array } {
  let max = 0
  for (const x of v) max = Math.max(max, Math.abs(x))
  const step = max / 127 || 1
  const q = new Int8Array(v.length)
  for (let d = 0; d < v.length; d++) q[d] = Math.round(v[d]! / step)
  return { step, q }
}

/**
 * A sentence vector as stored: its int8 step (float32), then int8Of's dimensions. A quarter of
 * float32's size (a turn has ~3 sentences; 512 dimensions are 516 bytes, not 2 KB), and no
 * loss to the search, which reads int8 anyway (signPartition.ts DensePartition).
 */
export function int8Blob(v: Float32Array): Buffer {
  const { step, q } = int8Of(v)
  const out = Buffer.alloc(4 + q.length)
  out.writeFloatLE(step, 0)
  out.set(new Uint8Array(q.buffer), 4)
  return out
}

/** What an int8Blob holds; null when it is not `dims` wide. */
export function int8Parts(blob: Uint8Array, dims: number): { step: number; q: Int8Array } | null {
  if (blob.length !== 4 + dims) return null
  const step = new DataView(blob.buffer, blob.byteOffset, 4).getFloat32(0, true)
  return { step, q: new Int8Array(blob.buffer, blob.byteOffset + 4, dims) }
}
