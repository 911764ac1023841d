import type { Statement } from 'better-sqlite3'
import type { Db } from '../../db/open'
import { int8Of, int8Parts, modelVectorMeta, SENTENCES_KEPT, type ModelVectorMeta } from '../store/modelVectors'
import { blobFloats } from '../store/embedder'
import { ROWS_A_STEP } from '../store/slices'
import { eachVecRow, type VecRow } from './vecChunks'
import { LoggedVectorIndex } from './loggedVectorIndex'
import { KindPartitions } from './kindPartitions'

/**
 * An in-memory copy of `vec_units_model` (the embedding model's dense vectors), per kind, and
 * of `model_sentences`, for the MemoryPack's "meaning" ranking: the model's kind of
 * LoggedVectorIndex (the change log is `model_vector_changes`, modelVectors.ts).
 *
 * sqlite-vec reads every float of a partition per query: with the built-in sentence model's
 * 512 dimensions a pack took 18.6 ms p95 at 10k units and 103 ms at 100k (bench/memory),
 * against targets of 10 and 40. Its bit vectors did not help (15 ms for 70k rows).
 *
 * Here each vector is kept twice, small: its signs (64 bytes at 512-d) and int8 with a per-row
 * scale (512 bytes). A query ranks every row by Hamming distance over the signs (~3 ms at 70k
 * in plain JS), then scores the closest `max(200, 10k)` exactly from the int8 copy. On LoCoMo's
 * sentence vectors (7.6k) 8× oversampling kept 99.6% of the exact top 20. `vec_units_model`
 * stays the source of truth (and the fallback inside a write transaction).
 *
 * Unit id 0 in the log means the table was started afresh (another model): reload everything.
 */
export class ModelVectorIndex extends LoggedVectorIndex {
  /** The model and width of the vectors held (null: none). */
  private loaded: ModelVectorMeta | null = null
  /** The table's model and width as the last plan read them (null: no model has vectors). */
  private meta: ModelVectorMeta | null = null
  private readonly parts = new KindPartitions<DensePartition>()
  /** Episodes' sentence vectors (model_sentences), row key `unit id × SENTENCES_KEPT + seq`. */
  private sentences: DensePartition | null = null
  private readonly stmts: Record<'sentencesOf' | 'sentencesAfter' | 'countSentences', Statement<unknown[]>>
  /** Prepared once the table exists (it is made on the model's first write). */
  private one: Statement<unknown[]> | null = null

  constructor(db: Db) {
    super(db, 'model_vector_changes')
    this.stmts = {
      sentencesOf: db.prepare('SELECT seq, embedding FROM model_sentences WHERE unit_id = ? ORDER BY seq').raw(true),
      sentencesAfter: db
        .prepare(
          `SELECT unit_id, seq, embedding FROM model_sentences WHERE (unit_id, seq) > (?, ?) ORDER BY unit_id, seq LIMIT ${SENTENCE_PAGE}`,
        )
        .raw(true),
      countSentences: db.prepare('SELECT count(*) FROM model_sentences').pluck(),
    }
  }

  /** No model's vectors, or another model or width than those held. */
  protected outdated(): boolean {
    const meta = (this.meta = modelVectorMeta(this.db))
    return !meta || meta.model !== this.loaded?.model || meta.dims !== this.loaded.dims
  }

  protected apply(ids: readonly number[]): boolean {
    const dims = this.loaded!.dims
    if (ids.includes(0)) return false
    this.one ??= this.db.prepare('SELECT embedding, kind FROM vec_units_model WHERE unit_id = ?')
    for (const id of ids) {
      const row = this.one.get(BigInt(id)) as { embedding: Buffer; kind: number | bigint } | undefined
      if (row) this.put(id, Number(row.kind), blobFloats(row.embedding, dims))
      else this.parts.remove(id)
      this.removeSentences(id)
      for (const [seq, embedding] of this.stmts.sentencesOf.iterate(id) as Iterable<[number, Buffer]>)
        this.putSentence(id, seq, int8Parts(embedding, dims), dims)
    }
    return true
  }

  /** Yields after each page (a few thousand rows); with no model's vectors, only empties the index. */
  protected *loadRows(sliced: boolean): Generator<void, 'chunks' | 'vec0' | null> {
    const meta = this.meta
    this.parts.clear()
    this.sentences = null
    this.loaded = meta
    if (!meta) return null
    const put = ([id, embedding, kind]: VecRow) => this.put(id, kind, blobFloats(embedding, meta.dims))
    const table = { table: 'vec_units_model', dims: meta.dims, metadata: 0 } as const
    const read = { sliced, chunksPerPage: 1 }
    const from = yield* eachVecRow(this.db, table, read, put, () => {}, () => this.parts.clear())
    // Sized once: at 100k units the sentences are ~200k rows, and growing by half leaves a third spare.
    const sentences = this.stmts.countSentences.get() as number
    if (sentences > 0) (this.sentences = new DensePartition(meta.dims)).reserve(sentences)
    // In pages read whole: all() is quicker than stepping through 200k rows.
    for (let after: [number, number] = [-1, -1]; ;) {
      const rows = this.stmts.sentencesAfter.all(...after) as Array<[number, number, Buffer]>
      for (const [i, [id, seq, embedding]] of rows.entries()) {
        this.putSentence(id, seq, int8Parts(embedding, meta.dims), meta.dims)
        if (i % ROWS_A_STEP === ROWS_A_STEP - 1) yield
      }
      if (rows.length < SENTENCE_PAGE) break
      after = [rows.at(-1)![0], rows.at(-1)![1]]
      yield
    }
    return from
  }

  /**
   * The k units of `kind` nearest to `vector` (cosine distance, nearest first), as
   * `nearestByModel` answers, to within the quantisation; empty for another model or width.
   */
  search(model: string, vector: readonly number[], kind: number, k: number): Array<{ id: number; distance: number }> {
    const query = this.unitQuery(model, vector)
    const part = this.parts.get(kind)
    if (!query || !part || k <= 0 || !this.ready) return []
    return part.nearest(query, k, Math.max(200, 10 * k))
  }

  /**
   * The k episodes with a sentence nearest to `vector` (each at its nearest sentence's
   * distance), nearest first; empty for another model or width, or a memory without sentences.
   */
  searchSentences(model: string, vector: readonly number[], k: number): Array<{ id: number; distance: number }> {
    const query = this.unitQuery(model, vector)
    if (!query || !this.sentences || k <= 0 || !this.ready) return []
    // A unit has a few sentences: four rows a unit wanted is nearly always k units. Their signs
    // pick four times that many to score (LoCoMo recall on conversations 0–2 is the same with
    // sixteen times).
    const rows = this.sentences.nearest(query, 4 * k, Math.max(200, 16 * k))
    const best = new Map<number, number>()
    for (const row of rows) {
      const id = Math.floor(row.id / SENTENCES_KEPT)
      if (!best.has(id)) best.set(id, row.distance)
    }
    return [...best].slice(0, k).map(([id, distance]) => ({ id, distance }))
  }

  private unitQuery(model: string, vector: readonly number[]): Float32Array | null {
    if (!this.loaded || this.loaded.model !== model || this.loaded.dims !== vector.length) return null
    const query = Float32Array.from(vector)
    const norm = Math.hypot(...query)
    if (norm === 0) return null
    for (let d = 0; d < query.length; d++) query[d] = query[d]! / norm
    return query
  }

  /** A row of another width (none is written so) is skipped rather than misread. */
  private putSentence(id: number, seq: number, stored: { step: number; q: Int8Array } | null, dims: number): void {
    if (!stored) return
    this.sentences ??= new DensePartition(dims)
    this.sentences.putInt8(id * SENTENCES_KEPT + seq, stored.step, stored.q)
  }

  /** Every sentence row the unit may have (a missing one is no work): few units change a turn. */
  private removeSentences(id: number): void {
    for (let seq = 0; seq < SENTENCES_KEPT; seq++) this.sentences?.remove(id * SENTENCES_KEPT + seq)
  }

  private put(id: number, kind: number, vector: Float32Array): void {
    this.parts.placing(id, kind, () => new DensePartition(vector.length)).put(id, vector)
  }
}

/** One kind's vectors: sign bits and int8 row after row; rows are swap-removed so they stay dense. */
export class DensePartition {
  size = 0
  private cap = 0
  private ids = new Float64Array(0)
  private bits = new Uint32Array(0)
  private q = new Int8Array(0)
  /** Per row: the int8 step (cosine = Σ q·query × scale, the rows being unit vectors). */
  private scale = new Float32Array(0)
  private readonly rowOf = new Map<number, number>()
  private readonly words: number

  constructor(private readonly dims: number) {
    this.words = Math.ceil(dims / 32)
  }

  put(id: number, v: Float32Array): void {
    const { step, q } = int8Of(v)
    // The floats' own signs: a component under half a step still has one.
    this.fill(this.rowFor(id), step, q, v)
  }

  /** A vector kept as int8 (modelVectors.int8Blob): its signs are its int8s'. */
  putInt8(id: number, step: number, q: Int8Array): void {
    this.fill(this.rowFor(id), step, q, q)
  }

  private rowFor(id: number): number {
    let row = this.rowOf.get(id)
    if (row === undefined) {
      if (this.size === this.cap) this.grow()
      row = this.size++
      this.rowOf.set(id, row)
      this.ids[row] = id
    }
    return row
  }

  private fill(row: number, step: number, q: Int8Array, signs: ArrayLike<number>): void {
    this.scale[row] = step
    this.q.set(q, row * this.dims)
    const bo = row * this.words
    this.bits.fill(0, bo, bo + this.words)
    for (let d = 0; d < this.dims; d++)
      if (signs[d]! > 0) this.bits[bo + (d >>> 5)] = this.bits[bo + (d >>> 5)]! | (1 << (d & 31))
  }

  remove(id: number): void {
    const row = this.rowOf.get(id)
    if (row === undefined) return
    const last = --this.size
    this.rowOf.delete(id)
    if (row === last) return
    const lastId = this.ids[last]!
    this.ids[row] = lastId
    this.scale[row] = this.scale[last]!
    this.q.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims)
    this.bits.copyWithin(row * this.words, last * this.words, (last + 1) * this.words)
    this.rowOf.set(lastId, row)
  }

  /**
   * The k nearest rows to a unit `query`: Hamming over the signs picks `pool`, int8 scores them.
   * In a large partition the first PREFIX_WORDS words of the signs (128 bits) first keep the
   * PREFIX_KEPT × pool rows closest on them; only those are counted over all their bits. At 100k
   * units (~300k rows with the sentences) counting every bit of every row was most of a pack.
   */
  nearest(query: Float32Array, k: number, pool: number): Array<{ id: number; distance: number }> {
    const { dims, words, size } = this
    const qbits = new Uint32Array(words)
    for (let d = 0; d < dims; d++) if (query[d]! > 0) qbits[d >>> 5] = qbits[d >>> 5]! | (1 << (d & 31))
    const rows =
      words > PREFIX_WORDS && size > PREFIX_KEPT * pool ? this.closestOnPrefix(qbits, PREFIX_KEPT * pool) : null
    const n = rows ? rows.length : size
    const { bits, q, scale, ids } = this
    // Hamming distances and their histogram: the pool is every row under the threshold.
    const ham = new Uint16Array(n)
    const histogram = new Uint32Array(dims + 1)
    for (let i = 0; i < n; i++) {
      const h = hamming(bits, (rows ? rows[i]! : i) * words, qbits, words)
      ham[i] = h
      histogram[h] = histogram[h]! + 1
    }
    const threshold = cut(histogram, pool)
    const scored: Array<{ id: number; distance: number }> = []
    for (let i = 0; i < n; i++) {
      if (ham[i]! > threshold) continue
      const r = rows ? rows[i]! : i
      let dot = 0
      const o = r * dims
      for (let d = 0; d < dims; d++) dot += q[o + d]! * query[d]!
      scored.push({ id: ids[r]!, distance: 1 - dot * scale[r]! })
    }
    return scored.sort((a, b) => a.distance - b.distance || a.id - b.id).slice(0, k)
  }

  /** The rows (at least `wanted`) closest to the query on the first PREFIX_WORDS words of the signs. */
  private closestOnPrefix(qbits: Uint32Array, wanted: number): Int32Array {
    const { words, size, bits } = this
    const ham = new Uint8Array(size)
    const histogram = new Uint32Array(PREFIX_WORDS * 32 + 1)
    for (let r = 0; r < size; r++) {
      const h = hamming(bits, r * words, qbits, PREFIX_WORDS)
      ham[r] = h
      histogram[h] = histogram[h]! + 1
    }
    const threshold = cut(histogram, wanted)
    let taken = 0
    for (let h = 0; h <= threshold; h++) taken += histogram[h]!
    const rows = new Int32Array(taken)
    for (let r = 0, i = 0; r < size; r++) if (ham[r]! <= threshold) rows[i++] = r
    return rows
  }

  /** Room for `rows` rows in all, made at once (a load knows how many it brings). */
  reserve(rows: number): void {
    if (rows > this.cap) this.resize(rows)
  }

  private grow(): void {
    this.resize(Math.max(256, Math.ceil(this.cap * 1.5)))
  }

  private resize(cap: number): void {
    const grown = <T extends Float64Array | Uint32Array | Int8Array | Float32Array>(
      old: T,
      make: (n: number) => T,
      per: number,
    ) => {
      const next = make(cap * per)
      next.set(old)
      return next
    }
    this.ids = grown(this.ids, (n) => new Float64Array(n), 1)
    this.scale = grown(this.scale, (n) => new Float32Array(n), 1)
    this.q = grown(this.q, (n) => new Int8Array(n), this.dims)
    this.bits = grown(this.bits, (n) => new Uint32Array(n), this.words)
    this.cap = cap
  }
}

/** Sentence rows read at a time when the index loads. */
const SENTENCE_PAGE = 1024

/** Sign words (of 32 bits) a large partition is first ranked on, and how many times the pool it keeps. */
const PREFIX_WORDS = 4
const PREFIX_KEPT = 8

/** The smallest Hamming distance under which at least `wanted` rows lie (all of them when fewer). */
function cut(histogram: Uint32Array, wanted: number): number {
  let threshold = 0
  for (let taken = 0; threshold < histogram.length - 1 && taken + histogram[threshold]! < wanted; threshold++)
    taken += histogram[threshold]!
  return threshold
}

/** The bits in which the row's first `words` sign words (from `o`) differ from the query's. */
function hamming(bits: Uint32Array, o: number, qbits: Uint32Array, words: number): number {
  let h = 0
  for (let w = 0; w < words; w++) {
    const x = bits[o + w]! ^ qbits[w]!
    h += BITS16[x & 0xffff]! + BITS16[x >>> 16]!
  }
  return h
}

/** Set bits of every 16-bit number: two lookups count a word's (a third quicker than bit tricks here). */
const BITS16 = (() => {
  const table = new Uint8Array(1 << 16)
  for (let i = 1; i < table.length; i++) table[i] = (i & 1) + table[i >>> 1]!
  return table
})()

const indexes = new WeakMap<Db, ModelVectorIndex>()

/** The connection's index of the model's vectors, created (empty, loaded on first sync) on first use. */
export function modelIndexOf(db: Db): ModelVectorIndex {
  let index = indexes.get(db)
  if (!index) indexes.set(db, (index = new ModelVectorIndex(db)))
  return index
}
