import type { Db } from '../../db/open'
import { EMBEDDING_DIMENSIONS } from '../store/embedder'
import { ROWS_A_STEP } from '../store/slices'

/** One row of a vec0 table: unit id, embedding bytes (float32), kind, then its INTEGER metadata (0 when it has none). */
export type VecRow = [id: number, embedding: Uint8Array, kind: number, state: number, sensitivity: number]

/** How `vecChunkPages` read the rows (see there). */
export type ChunkRead = 'complete' | 'newest' | 'partial' | 'unknown'

/** A vec0 table of ours: its name, its vectors' width, and how many INTEGER metadata columns to read. */
export interface VecTable {
  table: 'vec_units' | 'vec_units_model'
  dims: number
  metadata: 0 | 2
}

/** `vec_units` (memory migration 1): EMBEDDING_DIMENSIONS floats, partition `kind`, metadata `state`, `sensitivity`, `occurred_at`. */
export const VEC_UNITS: VecTable = { table: 'vec_units', dims: EMBEDDING_DIMENSIONS, metadata: 2 }

/** The sqlite-vec releases whose vec0 storage `vecChunkPages` reads (the one package.json pins). */
const KNOWN_VERSIONS = new Set(['v0.1.9'])

/**
 * The rows of one of our vec0 tables, read from sqlite-vec's own storage a page of chunks at a
 * time (up to `chunksPerPage` × 1,024 rows; all of them in one page by default).
 *
 * Reading through vec0 costs ~15–18 µs a row (each embedding is fetched on its own), so loading
 * the MemoryPack's vector index took ~1.5 s of its ~2 s at 100k units. sqlite-vec 0.1 keeps the
 * rows in chunks of up to 1,024: `<table>_chunks` holds each chunk's partition (our `kind`), a
 * validity bitmap and the rowids (int64), `<table>_vector_chunks00` the vectors side by side,
 * and `<table>_metadatachunksNN` each INTEGER metadata column as int64s, in the order the table
 * declares them (for `vec_units`: 00 `state`, 01 `sensitivity`). A handful of blob reads replace
 * a hundred thousand lookups. vecChunks.test.ts holds the rows equal to vec0's after adds, edits
 * and deletes; a release not listed above is read through vec0 until checked.
 *
 * Returns, once done, `complete` when the rows were every live one, `partial` when the counts
 * disagree (another release's layout, or rows written between the pages: a caller reading each
 * page in a transaction of its own, letting the event loop run between them, has those from its
 * change log), and `unknown` at once for a storage this does not read. Read a page inside a
 * read transaction: the tables must come from one snapshot. `table` is one of ours, never input.
 * With `newestRows`, only the chunks holding each partition's newest that many rows are read
 * (`newest`: there is then no count to hold them to), unless that is every chunk.
 */
export function* vecChunkPages(
  db: Db,
  { table, dims, metadata }: VecTable,
  chunksPerPage = Number.MAX_SAFE_INTEGER,
  newestRows?: number,
): Generator<VecRow[], ChunkRead> {
  if (!KNOWN_VERSIONS.has(String(db.prepare('SELECT vec_version()').pluck().get()))) return 'unknown'
  const bytes = dims * 4
  const meta = metadata === 2
  let read = 0
  let chunkIds: number[] | null = null
  if (newestRows !== undefined)
    try {
      chunkIds = newestChunks(db, table, newestRows)
    } catch {
      return 'unknown'
    }
  for (let after = -1; ;) {
    let chunks: Array<[number, number, number, Buffer, Buffer, Buffer, Buffer?, Buffer?]>
    try {
      chunks = readChunks(db, table, meta, after, chunksPerPage, chunkIds)
    } catch {
      return 'unknown' // tables or columns not as this release makes them (a file from another release)
    }
    const rows: VecRow[] = []
    for (const [, size, kind, validity, rowids, vectors, states, sensitivities] of chunks) {
      if (rowids.length < size * 8 || vectors.length < size * bytes) return 'unknown'
      if (meta && ((states?.length ?? 0) < size * 8 || (sensitivities?.length ?? 0) < size * 8)) return 'unknown'
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
    read += rows.length
    if (rows.length > 0) yield rows
    if (chunks.length < chunksPerPage) break
    after = chunks.at(-1)![0]
  }
  if (chunkIds) return 'newest'
  // Every live row once: vec0's own rowid table counts them.
  const live = db.prepare(`SELECT count(*) FROM ${table}_rowids`).pluck().get() as number
  return read === live ? 'complete' : 'partial'
}

/**
 * The chunks, oldest first, that hold each partition's newest `rows` rows (at least: a chunk's
 * deleted rows count too); null when that is every chunk. Rows are appended to a partition's
 * last chunk, so its newest rows are in its newest chunks; the chunks' sizes come from
 * `<table>_chunks` without their blobs.
 */
function newestChunks(db: Db, table: VecTable['table'], rows: number): number[] | null {
  const taken = new Map<number, number>()
  const ids: number[] = []
  const chunks = db
    .prepare(`SELECT chunk_id, partition00, size FROM ${table}_chunks ORDER BY chunk_id DESC`)
    .raw(true)
    .iterate() as Iterable<[number, number | bigint, number]>
  let skipped = false
  for (const [id, partition, size] of chunks) {
    const kind = Number(partition)
    const n = taken.get(kind) ?? 0
    if (n >= rows) {
      skipped = true
      continue
    }
    taken.set(kind, n + size)
    ids.push(id)
  }
  return skipped ? ids.reverse() : null
}

/**
 * A loader's walk through `vecChunkPages`: `take` is given each row, with a yield every
 * ROWS_A_STEP rows and after each page (`pageDone` first, once the page is all in). Returns
 * where the rows should come from: the chunks when they were every live row or the newest
 * chunks asked for (or, `partialOk`, a sliced read's pages, which may disagree with the count;
 * the change log brings the difference), else vec0.
 */
export function* eachChunkRow(
  pages: Generator<VecRow[], ChunkRead>,
  partialOk: boolean,
  take: (row: VecRow) => void,
  pageDone?: () => void,
): Generator<void, 'chunks' | 'vec0'> {
  for (;;) {
    const page = pages.next()
    if (page.done)
      return page.value === 'complete' || page.value === 'newest' || (partialOk && page.value === 'partial')
        ? 'chunks'
        : 'vec0'
    for (const [i, row] of page.value.entries()) {
      take(row)
      if (i % ROWS_A_STEP === ROWS_A_STEP - 1) yield
    }
    pageDone?.()
    yield
  }
}

/**
 * Every row of one of our vec0 tables for a load: from sqlite-vec's chunks when their layout is
 * the known one (~10× faster), `chunksPerPage` at a time, the newest `newestRows` of each
 * partition when given, else through vec0 after `restart` (the chunks' rows are then dropped).
 * Through vec0 the rows come at once, in slices too: a statement stepped across slices would
 * keep the connection busy. Returns where the rows came from.
 */
export function* eachVecRow(
  db: Db,
  table: VecTable,
  read: { sliced: boolean; chunksPerPage: number; newestRows?: number },
  take: (row: VecRow) => void,
  pageDone: () => void,
  restart: () => void,
): Generator<void, 'chunks' | 'vec0'> {
  const pages = vecChunkPages(db, table, read.chunksPerPage, read.newestRows)
  const from = yield* eachChunkRow(pages, read.sliced, take, pageDone)
  if (from === 'chunks') return from
  restart()
  const columns = table.metadata === 2 ? ', state, sensitivity' : ', 0, 0'
  const rows = db.prepare(`SELECT unit_id, embedding, kind${columns} FROM ${table.table}`).raw(true)
  for (const [id, embedding, kind, state, sensitivity] of rows.iterate() as Iterable<
    [number | bigint, Uint8Array, number | bigint, number | bigint, number | bigint]
  >)
    take([Number(id), embedding, Number(kind), Number(state), Number(sensitivity)])
  pageDone()
  return from
}

/**
 * Room for each partition's rows (by `kind`) as sqlite-vec's chunks hold them: at least the
 * live rows (a chunk's deleted rows count too). Null for a storage this does not read.
 */
export function vecPartitionRoom(db: Db, { table }: VecTable): Map<number, number> | null {
  if (!KNOWN_VERSIONS.has(String(db.prepare('SELECT vec_version()').pluck().get()))) return null
  try {
    const rows = db
      .prepare(`SELECT partition00, sum(size) FROM ${table}_chunks GROUP BY partition00`)
      .raw(true)
      .all() as Array<[number | bigint, number | bigint]>
    return new Map(rows.map(([kind, n]) => [Number(kind), Number(n)]))
  } catch {
    return null
  }
}

// The chunk tables declare a column named `rowid` (without INTEGER, so not the table's key);
// sqlite-vec reads a chunk by the real rowid, which `oid` names. Joined on the column, SQLite
// scanned every chunk for each page: ~65 ms a page at 100k units, where by `oid` it is a lookup.
function readChunks(
  db: Db,
  table: VecTable['table'],
  meta: boolean,
  after: number,
  limit: number,
  only: readonly number[] | null,
) {
  return db
    .prepare(
      `SELECT c.chunk_id, c.size, c.partition00, c.validity, c.rowids, v.vectors${meta ? ', s.data, p.data' : ''}
       FROM ${table}_chunks c JOIN ${table}_vector_chunks00 v ON v.oid = c.chunk_id
       ${meta ? `JOIN ${table}_metadatachunks00 s ON s.oid = c.chunk_id JOIN ${table}_metadatachunks01 p ON p.oid = c.chunk_id` : ''}
       WHERE c.chunk_id > ? ${only ? 'AND c.chunk_id IN (SELECT value FROM json_each(?))' : ''}
       ORDER BY c.chunk_id LIMIT ?`,
    )
    .raw(true)
    .all(...(only ? [after, JSON.stringify(only), limit] : [after, limit])) as Array<
    [number, number, number, Buffer, Buffer, Buffer, Buffer?, Buffer?]
  >
}

/** The i-th little-endian int64 of a blob, as a number (ids and small codes: no BigInt needed). */
function int64(blob: Buffer, i: number): number {
  return blob.readUInt32LE(i * 8) + blob.readInt32LE(i * 8 + 4) * 2 ** 32
}
