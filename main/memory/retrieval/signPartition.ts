import { int8Of } from '../store/modelVectors'
import { grownArray } from './grownArray'

/* The embedding model's partition (modelIndex.ts): signs to pick a pool, int8 to score it. */

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
  /** The largest id ever put: a search's reach is counted back from it. */
  private newestId = -Infinity

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
      this.newestId = Math.max(this.newestId, id)
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
   * Only rows whose id is within `reach` of the newest are read (all of them by default).
   */
  nearest(query: Float32Array, k: number, pool: number, reach = Infinity): Array<{ id: number; distance: number }> {
    const { dims, words, size } = this
    const qbits = new Uint32Array(words)
    for (let d = 0; d < dims; d++) if (query[d]! > 0) qbits[d >>> 5] = qbits[d >>> 5]! | (1 << (d & 31))
    const oldest = this.newestId - reach
    const rows =
      words > PREFIX_WORDS && size > PREFIX_KEPT * pool ? this.closestOnPrefix(qbits, PREFIX_KEPT * pool, oldest) : null
    const n = rows ? rows.length : size
    const { bits, q, scale, ids } = this
    // Hamming distances and their histogram: the pool is every row under the threshold (a row
    // out of reach is past every threshold).
    const ham = new Uint16Array(n)
    const histogram = new Uint32Array(dims + 1)
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i]! : i
      if (ids[r]! <= oldest) {
        ham[i] = dims + 1
        continue
      }
      const h = hamming(bits, r * words, qbits, words)
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
  private closestOnPrefix(qbits: Uint32Array, wanted: number, oldest: number): Int32Array {
    const { words, size, bits, ids } = this
    const ham = new Uint8Array(size)
    const histogram = new Uint32Array(PREFIX_WORDS * 32 + 1)
    for (let r = 0; r < size; r++) {
      if (ids[r]! <= oldest) {
        ham[r] = 255
        continue
      }
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
    this.ids = grownArray(this.ids, cap)
    this.scale = grownArray(this.scale, cap)
    this.q = grownArray(this.q, cap * this.dims)
    this.bits = grownArray(this.bits, cap * this.words)
    this.cap = cap
  }
}

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
