import type { Db } from '../db/open'

/** One `vec_units` row: unit id, embedding bytes (float32), kind, state, sensitivity. */
export type VecRow = [id: number, embedding: Uint8Array, kind: number, state: number, sensitivity: number]

/** The sqlite-vec releases whose vec0 storage `vecUnitsByChunks` reads (the one package.json pins). */
const KNOWN_VERSIONS = new Set(['v0.1.9'])

/** Bytes of one stored vector (memory migration 1: float[256]). */
const VECTOR_BYTES = 256 * 4

/**
 * Every `vec_units` row, read from sqlite-vec's own storage a chunk at a time, or null when the
 * storage is not the one this reads (another sqlite-vec release, or counts that disagree) and
 * the caller must go through vec0.
 *
 * Reading through vec0 costs ~18 µs a row (each embedding is fetched on its own), so loading the
 * MemoryPack's vector index took ~2 s at 100k units, all of it in the first pack after start.
 * sqlite-vec 0.1 keeps the rows in chunks of up to 1,024: `vec_units_chunks` holds each chunk's
 * partition (our `kind`), a validity bitmap and the rowids (int64), `vec_units_vector_chunks00`
 * the vectors side by side, and `vec_units_metadatachunksNN` each INTEGER metadata column as
 * int64s (00 `state`, 01 `sensitivity`, as memory migration 1 declares them). A handful of blob
 * reads replace a hundred thousand lookups. vecChunks.test.ts holds the two reads equal after
 * adds, edits and deletes; a release not listed above is read through vec0 until checked.
 * Call it inside a read transaction: the tables must come from one snapshot.
 */
export function vecUnitsByChunks(db: Db): VecRow[] | null {
  if (!KNOWN_VERSIONS.has(String(db.prepare('SELECT vec_version()').pluck().get()))) return null
  const rows: VecRow[] = []
  const chunks = db
    .prepare(
      `SELECT c.size, c.partition00, c.validity, c.rowids, v.vectors, s.data, p.data
       FROM vec_units_chunks c
       JOIN vec_units_vector_chunks00 v ON v.rowid = c.chunk_id
       JOIN vec_units_metadatachunks00 s ON s.rowid = c.chunk_id
       JOIN vec_units_metadatachunks01 p ON p.rowid = c.chunk_id`,
    )
    .raw(true)
    .all() as Array<[number, number, Buffer, Buffer, Buffer, Buffer, Buffer]>
  for (const [size, kind, validity, rowids, vectors, states, sensitivities] of chunks) {
    if (rowids.length < size * 8 || vectors.length < size * VECTOR_BYTES || states.length < size * 8) return null
    for (let i = 0; i < size; i++) {
      if ((validity[i >> 3]! & (1 << (i & 7))) === 0) continue
      rows.push([
        int64(rowids, i),
        vectors.subarray(i * VECTOR_BYTES, (i + 1) * VECTOR_BYTES),
        Number(kind),
        int64(states, i),
        int64(sensitivities, i),
      ])
    }
  }
  // Every live row once: vec0's own rowid table counts them.
  const live = db.prepare('SELECT count(*) FROM vec_units_rowids').pluck().get() as number
  return rows.length === live ? rows : null
}

/** The i-th little-endian int64 of a blob, as a number (ids and small codes: no BigInt needed). */
function int64(blob: Buffer, i: number): number {
  return blob.readUInt32LE(i * 8) + blob.readInt32LE(i * 8 + 4) * 2 ** 32
}
