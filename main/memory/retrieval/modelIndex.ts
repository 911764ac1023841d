import type { Statement } from 'better-sqlite3'
import type { Db } from '../../db/open'
import { int8Parts, modelVectorMeta, SENTENCES_KEPT, type ModelVectorMeta } from '../store/modelVectors'
import { blobFloats } from '../store/embedder'
import { ROWS_A_STEP } from '../store/slices'
import { eachVecRow, type VecRow } from './vecChunks'
import { LoggedVectorIndex } from './loggedVectorIndex'
import { DensePartition } from './signPartition'
import { SCAN_ROWS } from './int16Partition'
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
/**
 * How far back (in unit ids) a search reads: the memory's newest 100,000 units, as the local
 * vectors read a kind's newest 100,000 (int16Partition.ts SCAN_ROWS); older ones are found by
 * their words. At a million units, reading every row took the word model's search to 29 ms a
 * pack (39 ms p95) and the pack's p95 to 64 ms, past its 60.
 */
const MODEL_REACH = SCAN_ROWS

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
    const from = yield* eachVecRow(
      this.db,
      table,
      read,
      put,
      () => {},
      () => this.parts.clear(),
    )
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
    return part.nearest(query, k, Math.max(200, 10 * k), MODEL_REACH)
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
    const rows = this.sentences.nearest(query, 4 * k, Math.max(200, 16 * k), MODEL_REACH * SENTENCES_KEPT)
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

/** Sentence rows read at a time when the index loads. */
const SENTENCE_PAGE = 1024

const indexes = new WeakMap<Db, ModelVectorIndex>()

/** The connection's index of the model's vectors, created (empty, loaded on first sync) on first use. */
export function modelIndexOf(db: Db): ModelVectorIndex {
  let index = indexes.get(db)
  if (!index) indexes.set(db, (index = new ModelVectorIndex(db)))
  return index
}
