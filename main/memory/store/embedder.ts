/**
 * The built-in embedder: hashed word and character-trigram features (the "hashing trick")
 * with signed buckets, L2-normalised. Deterministic, synchronous and local, so vector search
 * works with no embedding provider and a query can be embedded on the chat's hot path.
 */
export const EMBEDDING_DIMENSIONS = 256
export const LOCAL_EMBEDDER = `local:hash-ngram-${EMBEDDING_DIMENSIONS}`

const STOP = new Set(
  'the a an and or but of to in on at for with is are was were be been it its this that i you he she we they me my your our their his her do did does have has had not so just what when where who how about from as by'.split(
    ' ',
  ),
)

export function embedLocal(text: string): Float32Array {
  const v = new Float32Array(EMBEDDING_DIMENSIONS)
  const norm = text.normalize('NFKC').toLowerCase()
  for (const word of norm.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP.has(word)) continue
    // CJK has no spaces: its runs count by character bigrams and trigrams only.
    const cjk = /[\u3040-\u30ff\u3400-\u9fff]/.test(word)
    if (!cjk) add(v, `w:${stem(word)}`, 1)
    const padded = cjk ? word : `^${word}$`
    for (let i = 0; i + 3 <= padded.length; i++) add(v, `t:${padded.slice(i, i + 3)}`, 0.35)
    if (cjk) for (let i = 0; i + 2 <= padded.length; i++) add(v, `b:${padded.slice(i, i + 2)}`, 0.5)
  }
  let sum = 0
  for (const x of v) sum += x * x
  const n = Math.sqrt(sum) || 1
  for (let i = 0; i < v.length; i++) v[i] = v[i]! / n
  return v
}

/** Crude English suffix folding so "paints", "painted", "painting" share a feature. */
export function stem(word: string): string {
  return word.length > 5 ? word.replace(/(ing|ed|es|s)$/, '') : word
}

function add(v: Float32Array, feature: string, weight: number): void {
  let h = 0x811c9dc5
  for (let i = 0; i < feature.length; i++) h = Math.imul(h ^ feature.charCodeAt(i), 0x01000193) >>> 0
  const sign = h & 0x80000000 ? -1 : 1
  const at = h % EMBEDDING_DIMENSIONS
  v[at] = v[at]! + sign * weight
}

export function vectorBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
}

/** A stored vector's `dims` floats, copied: better-sqlite3's buffers need not be 4-byte aligned. */
export function blobFloats(blob: Uint8Array, dims: number): Float32Array {
  const out = new Float32Array(dims)
  new Uint8Array(out.buffer).set(blob.subarray(0, dims * 4))
  return out
}
