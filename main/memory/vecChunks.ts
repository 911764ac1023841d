import type { Db } from '../db/open'
import { EMBEDDING_DIMENSIONS } from './embedder'

/** One row of a vec0 table: unit id, embedding bytes (float32), kind, then its INTEGER metadata (0 when it has none). */
export type VecRow = [id: number, embedding: Uint8Array, kind: number, state: number, sensitivity: number]

/** A vec0 table of ours: its name, its vectors' width, and how many INTEGER metadata columns to read. */
export interface VecTable {
  table: 'vec_units' | 'vec_units_model'
  dims: number
  metadata: 0 | 2
}

/** `vec_units` (memory migration 1): EMBEDDING_DIMENSIONS floats, partition `kind`, metadata `state`, `sensitivity`, `occurred_at`. */
export const VEC_UNITS: VecTable = { table: 'vec_units', dims: EMBEDDING_DIMENSIONS, metadata: 2 }

/** The sqlite-vec releases whose vec0 storage `vecRowsByChunks` reads (the one package.json pins). */
const KNOWN_VERSIONS = new Set(['v0.1.9'])

/**
 * Every row of one of our vec0 tables, read from sqlite-vec's own storage a chunk at a time,
 * or null when the storage is not the one this reads (another sqlite-vec release, or counts
 * that disagree) and the caller must go through vec0.
 *
 * Reading through vec0 costs ~15–18 µs a row (each embedding is fetched on its own), so loading
 * the MemoryPack's vector index took ~1.5 s of its ~2 s at 100k units, all of it in the first
 * pack after start. sqlite-vec 0.1 keeps the rows in chunks of up to 1,024: `<table>_chunks`
 * holds each chunk's partition (our `kind`), a validity bitmap and the rowids (int64),
 * `<table>_vector_chunks00` the vectors side by side, and `<table>_metadatachunksNN` each
 * INTEGER metadata column as int64s, in the order the table declares them (for `vec_units`: 00
 * `state`, 01 `sensitivity`). A handful of blob reads replace a hundred thousand lookups.
 * vecChunks.test.ts holds the two reads equal after adds, edits and deletes; a release not
 * listed above is read through vec0 until checked. Call it inside a read transaction: the
 * tables must come from one snapshot. `table` is one of ours, never input.
 */
export function vecRowsByChunks(db: Db, { table, dims, metadata }: VecTable): VecRow[] | null {
  if (!KNOWN_VERSIONS.has(String(db.prepare('SELECT vec_version()').pluck().get()))) return null
  const bytes = dims * 4
  const meta = metadata === 2
  const rows: VecRow[] = []
  let chunks: Array<[number, number, Buffer, Buffer, Buffer, Buffer?, Buffer?]>
  try {
    chunks = readChunks(db, table, meta)
  } catch {
    return null // tables or columns not as this release makes them (a file from another release)
  }
  for (const [size, kind, validity, rowids, vectors, states, sensitivities] of chunks) {
    if (rowids.length < size * 8 || vectors.length < size * bytes) return null
    if (meta && ((states?.length ?? 0) < size * 8 || (sensitivities?.length ?? 0) < size * 8)) return null
    for (let i = 0; i < size; i++) {
      if ((validity[i >> 3]! & (1 << (i & 7))) === 0) continue
      rows.push([
        int64(rowids, i),
        vectors.subarray(i * bytes, (i + 1) * bytes),
        Number(kind),
        states ? int64(states, i) : 0,
        sensitivities ? int64(sensitivities, i) : 0,
      ])
    }
  }
  // Every live row once: vec0's own rowid table counts them.
  const live = db.prepare(`SELECT count(*) FROM ${table}_rowids`).pluck().get() as number
  return rows.length === live ? rows : null
}

function readChunks(db: Db, table: VecTable['table'], meta: boolean) {
  return db
    .prepare(
      `SELECT c.size, c.partition00, c.validity, c.rowids, v.vectors${meta ? ', s.data, p.data' : ''}
       FROM ${table}_chunks c JOIN ${table}_vector_chunks00 v ON v.rowid = c.chunk_id
       ${meta ? `JOIN ${table}_metadatachunks00 s ON s.rowid = c.chunk_id JOIN ${table}_metadatachunks01 p ON p.rowid = c.chunk_id` : ''}`,
    )
    .raw(true)
    .all() as Array<[number, number, Buffer, Buffer, Buffer, Buffer?, Buffer?]>
}

/** The i-th little-endian int64 of a blob, as a number (ids and small codes: no BigInt needed). */
function int64(blob: Buffer, i: number): number {
  return blob.readUInt32LE(i * 8) + blob.readInt32LE(i * 8 + 4) * 2 ** 32
}
