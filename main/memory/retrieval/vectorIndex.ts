import type { Statement } from 'better-sqlite3'
import { blobFloats, EMBEDDING_DIMENSIONS } from '../store/embedder'
import { KindPartitions } from './kindPartitions'
import { UnitKind } from '../store/enums'
import type { MemoryStore } from '../store/store'
import { VEC_UNITS, eachVecRow, vecPartitionRoom } from './vecChunks'
import { LoggedVectorIndex } from './loggedVectorIndex'
import { Partition, SCAN_ROWS, Tiles } from './int16Partition'

export { Partition, SCAN_ROWS }

/**
 * An in-memory copy of `vec_units`, per kind partition, for the MemoryPack's KNN: the local
 * kind of LoggedVectorIndex (the change log is `vec_changes`, store.ts).
 *
 * sqlite-vec 0.1 reads every float of a partition for each query (70k × 256 floats: 15–30 ms)
 * and its top-k selection grows with k. Its binary quantisation does not help: the local
 * hashed-n-gram vectors are sparse (about 110 of 256 dimensions non-zero, a query's about 26),
 * so sign bits keep little of the ranking (5–14% of the exact top 80 survived a 2–8× oversampled
 * bit pass), and rescoring through vec0 point lookups costs ~0.1 ms a row at 100k units.
 *
 * Here each vector of the searched kinds is kept as int16 with a per-row step (512 bytes a
 * unit, up to 25% more while it grows), dimension-major, and a query reads only the columns of
 * its non-zero dimensions: a few MB per query instead of 70 MB. The quantisation error stays below 1e-4 in cosine distance, so the answer is
 * sqlite-vec's up to near-ties. `vec_units` stays the source of truth (and the fallback).
 */
export class VectorIndex extends LoggedVectorIndex {
  private readonly parts = new KindPartitions<Partition>()
  private readonly one: Statement<unknown[]>

  /** `kinds`: the partitions kept (units of other kinds are skipped). */
  constructor(
    store: MemoryStore,
    private readonly kinds: ReadonlySet<number>,
  ) {
    super(store.db, 'vec_changes')
    this.one = store.db.prepare('SELECT embedding, kind, state, sensitivity FROM vec_units WHERE unit_id = ?')
  }

  protected outdated(): boolean {
    return false
  }

  protected apply(ids: readonly number[]): boolean {
    for (const id of ids) {
      const row = this.one.get(BigInt(id)) as
        { embedding: Buffer; kind: number; state: number; sensitivity: number } | undefined
      if (row) this.put(id, row.kind, row.state, row.sensitivity, row.embedding)
      else this.parts.remove(id)
    }
    return true
  }

  /**
   * Yields after each page and every ROWS_A_STEP rows, a chunk of sqlite-vec's rows a page in
   * slices. In slices, a unit rewritten between them may come twice, in its old chunk and its
   * new one (the second time it is put in place).
   */
  protected *loadRows(sliced: boolean): Generator<void, 'chunks' | 'vec0'> {
    this.parts.clear()
    // Room made once (no more than a partition keeps): grown by a quarter at a time, a 70k-row
    // partition was copied ~25 times.
    for (const [kind, n] of vecPartitionRoom(this.db, VEC_UNITS) ?? [])
      if (this.kinds.has(kind)) this.parts.of(kind, () => new Partition()).reserve(n)
    const tiles = new Tiles(this.parts, this.kinds)
    // The newest chunks of each kind, the rows a search reads, a few at a time (all at once, a
    // million units' vectors were a gigabyte of blobs in one page).
    const read = { sliced, chunksPerPage: sliced ? 1 : CHUNKS_A_PAGE, newestRows: SCAN_ROWS }
    return yield* eachVecRow(
      this.db,
      VEC_UNITS,
      read,
      ([id, embedding, kind, state, sensitivity]) => {
        if (this.parts.has(id)) this.put(id, kind, state, sensitivity, embedding)
        else tiles.add(id, embedding, kind, state, sensitivity)
      },
      // Every row of a page in, before a later page may bring one of them again.
      () => tiles.flush(),
      () => this.parts.clear(),
    )
  }

  private put(id: number, kind: number, state: number, sensitivity: number, blob: Uint8Array): void {
    // A unit now of a kind not kept here leaves the one it was in.
    if (!this.kinds.has(kind)) return this.parts.remove(id)
    // One older than the rows its partition keeps is not taken in (Partition).
    if (
      !this.parts
        .placing(id, kind, () => new Partition())
        .put(id, state, sensitivity, blobFloats(blob, EMBEDDING_DIMENSIONS))
    )
      this.parts.forget(id)
  }

  /** Whether `kind`'s partition is kept here. */
  has(kind: number): boolean {
    return this.kinds.has(kind)
  }

  /** Units in the index (every partition). */
  get size(): number {
    return this.parts.size
  }

  /**
   * The k nearest units of one kind by cosine distance, nearest first, among those whose state
   * is not `excludeState` and whose sensitivity is below `sensitivityBelow` — what
   * `vec_units WHERE embedding MATCH ? AND k = ? AND kind = ? AND state != ? AND sensitivity < ?`
   * answers, to within the quantisation error (below 1e-4 in distance). Zero vectors (empty
   * text) are never returned.
   */
  search(
    query: Float32Array,
    kind: number,
    k: number,
    filter: { excludeState: number; sensitivityBelow: number },
  ): Array<{ id: number; distance: number }> {
    this.stats.searches++
    const part = this.parts.get(kind)
    if (!part || k <= 0) return []
    const dims: number[] = []
    const vals: number[] = []
    let qnorm = 0
    for (let i = 0; i < query.length; i++) {
      const x = query[i]!
      if (x === 0) continue
      dims.push(i)
      vals.push(x)
      qnorm += x * x
    }
    if (dims.length === 0) return []
    return part.nearest(dims, vals, Math.sqrt(qnorm), k, filter)
  }
}

/** sqlite-vec chunks (1,024 rows, ~1 MB each) read at a time by a load at once. */
const CHUNKS_A_PAGE = 16

const indexes = new WeakMap<MemoryStore, VectorIndex>()

/** The kinds the MemoryPack searches by vector. */
const SEARCHED = new Set<number>([UnitKind.EPISODE, UnitKind.FACT, UnitKind.SUMMARY])

/** The store's vector index, created (empty, loaded on first sync) on first use. */
export function vectorIndexOf(store: MemoryStore): VectorIndex {
  let index = indexes.get(store)
  if (!index) indexes.set(store, (index = new VectorIndex(store, SEARCHED)))
  return index
}
