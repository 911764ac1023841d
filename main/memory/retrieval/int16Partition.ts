import { EMBEDDING_DIMENSIONS } from '../store/embedder'
import type { KindPartitions } from './kindPartitions'
import { grownArray } from './grownArray'

/* The local vectors' partition (vectorIndex.ts): int16, dimension-major, the newest SCAN_ROWS rows kept. */

const TILE = 64
interface Tile {
  count: number
  ids: Float64Array
  states: Uint8Array
  sensitivities: Uint8Array
  vectors: Float32Array
  bytes: Uint8Array
}
function newTile(): Tile {
  const vectors = new Float32Array(TILE * EMBEDDING_DIMENSIONS)
  return {
    count: 0,
    ids: new Float64Array(TILE),
    states: new Uint8Array(TILE),
    sensitivities: new Uint8Array(TILE),
    vectors,
    bytes: new Uint8Array(vectors.buffer),
  }
}

/** Rows appended to their kinds' partitions a tile at a time: written column by column, a tile stays in cache. */
export class Tiles {
  private readonly tiles = new Map<number, Tile>()

  constructor(
    private readonly parts: KindPartitions<Partition>,
    private readonly kinds: ReadonlySet<number>,
  ) {}

  /** Takes a unit not in the index yet (units of kinds not kept are skipped). */
  add(id: number, embedding: Uint8Array, kind: number, state: number, sensitivity: number): void {
    if (!this.kinds.has(kind)) return
    let t = this.tiles.get(kind)
    if (!t) this.tiles.set(kind, (t = newTile()))
    const r = t.count++
    t.ids[r] = id
    t.states[r] = state
    t.sensitivities[r] = sensitivity
    t.bytes.set(embedding.subarray(0, DIMS * 4), r * DIMS * 4)
    this.parts.placed(id, kind)
    if (t.count === TILE) this.flushTile(kind, t)
  }

  /** Appends what the tiles hold. */
  flush(): void {
    for (const [kind, t] of this.tiles) if (t.count > 0) this.flushTile(kind, t)
  }

  private flushTile(kind: number, t: Tile): void {
    const part = this.parts.of(kind, () => new Partition())
    for (const id of part.append(t.ids, t.states, t.sensitivities, t.vectors, t.count)) this.parts.forget(id)
    t.count = 0
  }
}

/**
 * The newest rows of a partition a search reads, and about all it keeps. Reading every row costs
 * in proportion to the memory (~5 ms per 100,000 rows on an idle core, ten times that on a busy
 * one), so at a million units the vectors alone would take a pack past its budget; keeping every
 * row held 512 bytes a unit (2.3 GB of RSS at a million units) for rows no search read. Older
 * units are still found by their words and trigrams, as the word search keeps only each common
 * word's newest rows (tuning.wordsPerTerm). A memory of up to this many units of a kind is
 * searched whole.
 */
export const SCAN_ROWS = 100_000
const DIMS = EMBEDDING_DIMENSIONS
/** int16 steps per row: the largest component maps to ±QMAX. */
const QMAX = 32767
/** A removed row's id until the rows are compacted. */
const GONE = -1

/**
 * One kind's vectors, quantised to int16 with a per-row step and stored dimension-major
 * (column d holds every row's component d), so a query reads only the columns of its non-zero
 * dimensions, sequentially.
 *
 * Rows stay in the order units came, so the newest are the last: a removed row is marked gone
 * and the rows are compacted once a quarter of them are (a swap-removal moved the newest row
 * into the gap, where a search past SCAN_ROWS no longer read it). Past a quarter more than
 * `scanRows`, the oldest rows are dropped down to `scanRows`: a search never read them. A unit
 * dropped, or older than one dropped, is not taken in again (`put` answers false): a change to
 * an old unit must not bring it back as the newest.
 */
export class Partition {
  /** `scanRows`: how many of the newest rows a search reads and the partition keeps (SCAN_ROWS). */
  constructor(private readonly scanRows = SCAN_ROWS) {}

  /** Rows in use, gone ones included. */
  private rows = 0
  /** Of those, gone. */
  private gone = 0
  /** The highest unit id dropped as too old (0: none). */
  private dropped = 0
  private cap = 0
  ids = new Float64Array(0)
  private cols = new Int16Array(0)
  /** Per row: step / norm (cosine similarity = dot · factor / |q|); 0 for a zero vector and a gone row. */
  private factor = new Float64Array(0)
  private state = new Uint8Array(0)
  private sensitivity = new Uint8Array(0)
  private readonly rowOf = new Map<number, number>()

  /** Units held. */
  get size(): number {
    return this.rows - this.gone
  }

  /** Puts the unit's vector in (or in place); false when it is older than the rows kept. */
  put(id: number, state: number, sensitivity: number, v: Float32Array): boolean {
    const row = this.rowOf.get(id)
    if (row === undefined) {
      if (id <= this.dropped) return false
      this.append([id], [state], [sensitivity], v, 1)
      return true
    }
    const inv = this.meta(row, id, state, sensitivity, v, 0)
    for (let d = 0; d < DIMS; d++) this.cols[d * this.cap + row] = Math.round(v[d]! * inv)
    return true
  }

  /**
   * Adds `count` units not in the partition yet, their vectors row after row in `vectors`, and
   * answers the ids of the oldest units dropped to make room (see the class).
   */
  append(
    ids: ArrayLike<number>,
    states: ArrayLike<number>,
    sensitivities: ArrayLike<number>,
    vectors: Float32Array,
    count: number,
  ): number[] {
    const dropped = this.rows + count > this.keptRows() ? this.compact(Math.max(0, this.scanRows - count)) : []
    while (this.rows + count > this.cap) this.grow()
    const base = this.rows
    const inv = new Float64Array(count)
    for (let r = 0; r < count; r++) {
      this.rowOf.set(ids[r]!, base + r)
      inv[r] = this.meta(base + r, ids[r]!, states[r]!, sensitivities[r]!, vectors, r * DIMS)
    }
    for (let d = 0; d < DIMS; d++) {
      const off = d * this.cap + base
      for (let r = 0; r < count; r++) this.cols[off + r] = Math.round(vectors[r * DIMS + d]! * inv[r]!)
    }
    this.rows += count
    return dropped
  }

  /** Rows held before the oldest are dropped: a quarter more than a search reads, so drops come in batches. */
  private keptRows(): number {
    return this.scanRows + Math.ceil(this.scanRows / 4)
  }

  /** Sets a row's id, filters and factor; answers 1 / step (0 for a zero vector). */
  private meta(row: number, id: number, state: number, sensitivity: number, v: Float32Array, at: number): number {
    let max = 0
    let norm = 0
    for (let i = at; i < at + DIMS; i++) {
      const x = v[i]!
      max = Math.max(max, Math.abs(x))
      norm += x * x
    }
    const step = max / QMAX
    this.ids[row] = id
    this.factor[row] = norm > 0 ? step / Math.sqrt(norm) : 0
    this.state[row] = state
    this.sensitivity[row] = sensitivity
    return step > 0 ? 1 / step : 0
  }

  remove(id: number): void {
    const row = this.rowOf.get(id)
    if (row === undefined) return
    this.rowOf.delete(id)
    this.ids[row] = GONE
    this.factor[row] = 0
    this.gone++
    if (this.gone * 4 > this.rows) this.compact(this.size)
  }

  /**
   * Keeps the newest `live` units' rows, in their order, at the front; the rows gone are
   * squeezed out. Answers the ids of the units dropped.
   */
  private compact(live: number): number[] {
    let from = this.rows
    for (let n = 0; from > 0 && n < live;) if (this.ids[--from] !== GONE) n++
    const dropped: number[] = []
    for (let r = 0; r < from; r++) {
      const id = this.ids[r]!
      if (id === GONE) continue
      dropped.push(id)
      this.rowOf.delete(id)
      this.dropped = Math.max(this.dropped, id)
    }
    const kept: number[] = []
    for (let r = from; r < this.rows; r++) if (this.ids[r] !== GONE) kept.push(r)
    for (let d = 0, off = 0; d < DIMS; d++, off += this.cap)
      for (let to = 0; to < kept.length; to++) this.cols[off + to] = this.cols[off + kept[to]!]!
    kept.forEach((r, to) => {
      const id = this.ids[r]!
      this.ids[to] = id
      this.factor[to] = this.factor[r]!
      this.state[to] = this.state[r]!
      this.sensitivity[to] = this.sensitivity[r]!
      this.rowOf.set(id, to)
    })
    this.rows = kept.length
    this.gone = 0
    return dropped
  }

  /** Room for `rows` rows in all (no more than are kept), made in one step: a full load knows how many come (growing by a quarter at a time copied the columns ~25 times). */
  reserve(rows: number): void {
    const room = Math.min(rows, this.keptRows())
    if (room > this.cap) this.resize(room)
  }

  private grow(): void {
    // By a quarter: a partition of 70k rows should not sit in 128k rows' worth of memory.
    this.resize(Math.max(256, Math.ceil(this.cap * 1.25)))
  }

  private resize(cap: number): void {
    const cols = new Int16Array(DIMS * cap)
    for (let d = 0; d < DIMS; d++) cols.set(this.cols.subarray(d * this.cap, d * this.cap + this.rows), d * cap)
    this.cols = cols
    this.ids = grownArray(this.ids, cap)
    this.factor = grownArray(this.factor, cap)
    this.state = grownArray(this.state, cap)
    this.sensitivity = grownArray(this.sensitivity, cap)
    this.cap = cap
  }

  /**
   * The k rows most similar to the sparse query (dims, vals), nearest first.
   *
   * A block of BLOCK rows at a time: its sums stay in the first-level cache while every query
   * column adds to them, four columns a pass, and its rows are filtered and ranked before the
   * next block is read. At a million units (100k rows read) this took the search from ~11.6 to
   * ~7.2 ms of CPU a query (busy machine, same answers): a sum over every row went through the
   * cache once per query column. The sums are added in the same order as one column at a time,
   * so they are the same to the last bit.
   */
  nearest(
    dims: number[],
    vals: number[],
    qnorm: number,
    k: number,
    filter: { excludeState: number; sensitivityBelow: number },
  ): Array<{ id: number; distance: number }> {
    const { cols, cap, rows: size, factor, state, sensitivity } = this
    const offsets = Int32Array.from(dims, (d) => d * cap)
    const weights = Float64Array.from(vals)
    const acc = blockSums
    // A min-heap of the k best rows by similarity.
    const heapRow = new Int32Array(k)
    const heapSim = new Float64Array(k)
    let n = 0
    // Rows are kept in the order units came; a gone row's factor is 0.
    for (let start = Math.max(0, size - this.scanRows); start < size; start += BLOCK) {
      const len = Math.min(BLOCK, size - start)
      sumBlock(cols, offsets, weights, start, len)
      for (let i = 0; i < len; i++) {
        const r = start + i
        const f = factor[r]!
        if (f === 0 || state[r] === filter.excludeState || sensitivity[r]! >= filter.sensitivityBelow) continue
        const sim = (acc[i]! * f) / qnorm
        if (n < k) {
          let at = n++
          while (at > 0) {
            const p = (at - 1) >> 1
            if (heapSim[p]! <= sim) break
            heapSim[at] = heapSim[p]!
            heapRow[at] = heapRow[p]!
            at = p
          }
          heapSim[at] = sim
          heapRow[at] = r
        } else if (sim > heapSim[0]!) {
          let at = 0
          for (;;) {
            const l = 2 * at + 1
            if (l >= n) break
            const c = l + 1 < n && heapSim[l + 1]! < heapSim[l]! ? l + 1 : l
            if (heapSim[c]! >= sim) break
            heapSim[at] = heapSim[c]!
            heapRow[at] = heapRow[c]!
            at = c
          }
          heapSim[at] = sim
          heapRow[at] = r
        }
      }
    }
    const out: Array<{ id: number; distance: number }> = []
    for (let i = 0; i < n; i++) out.push({ id: this.ids[heapRow[i]!]!, distance: 1 - heapSim[i]! })
    return out.sort((a, b) => a.distance - b.distance || a.id - b.id)
  }
}

/** Rows summed at a time by a search: 2,048 sums (16 KB) stay in the first-level cache (1,024 and 4,096 were slower). */
const BLOCK = 2048
/** The sums of the block being searched (one search at a time: the main thread's). */
const blockSums = new Float64Array(BLOCK)

/**
 * blockSums[i] = Σ_j cols[offsets[j] + start + i] · weights[j] for the block's `len` rows, added
 * column after column as a loop over one column at a time would (four columns a pass: a sum is
 * read and written a quarter as often).
 */
function sumBlock(cols: Int16Array, offsets: Int32Array, weights: Float64Array, start: number, len: number): void {
  const acc = blockSums
  const nd = offsets.length
  let j = 0
  if (nd >= 4) {
    const a = offsets[0]! + start
    const b = offsets[1]! + start
    const c = offsets[2]! + start
    const d = offsets[3]! + start
    const wa = weights[0]!
    const wb = weights[1]!
    const wc = weights[2]!
    const wd = weights[3]!
    for (let r = 0; r < len; r++) acc[r] = cols[a + r]! * wa + cols[b + r]! * wb + cols[c + r]! * wc + cols[d + r]! * wd
    j = 4
  } else acc.fill(0, 0, len)
  for (; j + 4 <= nd; j += 4) {
    const a = offsets[j]! + start
    const b = offsets[j + 1]! + start
    const c = offsets[j + 2]! + start
    const d = offsets[j + 3]! + start
    const wa = weights[j]!
    const wb = weights[j + 1]!
    const wc = weights[j + 2]!
    const wd = weights[j + 3]!
    for (let r = 0; r < len; r++)
      acc[r] = acc[r]! + cols[a + r]! * wa + cols[b + r]! * wb + cols[c + r]! * wc + cols[d + r]! * wd
  }
  for (; j < nd; j++) {
    const a = offsets[j]! + start
    const wa = weights[j]!
    for (let r = 0; r < len; r++) acc[r] = acc[r]! + cols[a + r]! * wa
  }
}
