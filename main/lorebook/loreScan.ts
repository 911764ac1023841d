import { LRUCache } from 'lru-cache'
import { AhoCorasick } from './ahoCorasick'
import { BoundedRegexes } from './boundedRegex'
import { isUnspaced, onWordBoundary, regexKey } from './loreKeys'

export interface KeyOptions {
  caseSensitive: boolean
  wholeWords: boolean
}

/** A compiled key: a plain pattern of one of the two automata, or a regular expression. */
export type KeyRef = { kind: 'plain'; folded: boolean; id: number; wholeWords: boolean } | { kind: 'regex'; id: number }

/** What keys one text holds, found once and kept: a conversation's messages are scanned again every turn. */
export interface TextScan {
  /** Plain patterns found, by id: 1 only inside longer words, 2 on a word boundary. */
  exact: ReadonlyMap<number, 1 | 2>
  folded: ReadonlyMap<number, 1 | 2>
  /** Regular expressions that match, by id. */
  regex: ReadonlySet<number>
}

/** A scanned text and the message it is: 0 the new prompt, 1 the reply before it…; -1 a fired entry's text. */
export interface ScannedText {
  scan: TextScan
  message: number
}

interface PrimaryRef {
  slot: number
  key: number
  wholeWords: boolean
}

/**
 * Every key of the books in play: one Aho–Corasick automaton over the case-sensitive plain keys
 * and one over the lowercased others, so a text costs one pass whatever the number of entries,
 * and regular expressions only for the keys written as one. A text's scan is kept (by its text,
 * least recently used out): of a 50-turn scan depth, a new turn brings one or two new messages.
 */
export interface KeyTable {
  addPrimary(key: string, slot: number, index: number, options: KeyOptions): void
  /** A secondary key, compiled; null for a blank one. */
  addSecondary(key: string, options: KeyOptions): KeyRef | null
  scan(text: string): TextScan
  /** Primary keys by pattern id and regex id. */
  readonly primary: { exact: PrimaryRef[][]; folded: PrimaryRef[][]; regex: PrimaryRef[][] }
  /** Regular expression keys left out for taking too long on a text (boundedRegex). */
  readonly slowKeys: string[]
  /** Whether a key, as written, is a regular expression left out for taking too long. */
  isSlow(key: string): boolean
}

/** Characters of scanned text kept per table. */
const KEPT_CHARS = 4_000_000

export function compileKeys(): KeyTable {
  const automata = { exact: new AhoCorasick(), folded: new AhoCorasick() }
  const ids = { exact: new Map<string, number>(), folded: new Map<string, number>(), regex: new Map<string, number>() }
  const regexes = new BoundedRegexes()
  const primary: KeyTable['primary'] = { exact: [], folded: [], regex: [] }
  const kept = new LRUCache<string, TextScan>({
    max: 20_000,
    maxSize: KEPT_CHARS,
    sizeCalculation: (_s, t) => Math.max(1, t.length),
  })

  const compile = (key: string, options: KeyOptions): KeyRef | null => {
    const re = regexKey(key)
    if (re) {
      let id = ids.regex.get(key)
      if (id === undefined) {
        ids.regex.set(key, (id = regexes.add(re)))
        primary.regex.push([])
      }
      return { kind: 'regex', id }
    }
    const text = key.trim()
    if (!text) return null
    const folded = !options.caseSensitive
    const pattern = folded ? text.toLowerCase() : text
    const mode = folded ? 'folded' : 'exact'
    let id = ids[mode].get(pattern)
    if (id === undefined) {
      ids[mode].set(pattern, (id = automata[mode].add(pattern)))
      primary[mode].push([])
    }
    return { kind: 'plain', folded, id, wholeWords: options.wholeWords && !isUnspaced(text) }
  }

  const scanWith = (auto: AhoCorasick, text: string): Map<number, 1 | 2> => {
    const found = new Map<number, 1 | 2>()
    if (auto.size === 0) return found
    auto.search(text, (id, start, end) => {
      if (found.get(id) === 2) return
      found.set(id, onWordBoundary(text, start, end) ? 2 : 1)
    })
    return found
  }

  return {
    primary,
    get slowKeys() {
      return regexes.slow
    },
    isSlow(key) {
      const id = ids.regex.get(key)
      return id !== undefined && regexes.isSlow(id)
    },
    addPrimary(key, slot, index, options) {
      const ref = compile(key, options)
      if (!ref) return
      const list = ref.kind === 'regex' ? primary.regex : ref.folded ? primary.folded : primary.exact
      list[ref.id]!.push({ slot, key: index, wholeWords: ref.kind === 'plain' && ref.wholeWords })
    },
    addSecondary: compile,
    scan(text) {
      let s = kept.get(text)
      if (!s) {
        s = {
          exact: scanWith(automata.exact, text),
          folded: scanWith(automata.folded, text.toLowerCase()),
          regex: regexes.matching(text),
        }
        kept.set(text, s)
      }
      return s
    },
  }
}

/** Whether a compiled key is in a scanned text. */
export function holds(scan: TextScan, ref: KeyRef): boolean {
  if (ref.kind === 'regex') return scan.regex.has(ref.id)
  const at = (ref.folded ? scan.folded : scan.exact).get(ref.id)
  return at === 2 || (at === 1 && !ref.wholeWords)
}

/** Per slot, per primary key index, the lowest message it was found in. */
export type KeyHits = Map<number, Map<number, number>>

/**
 * Where each entry's primary keys were found (added to `hits` when given): slot → key index → the lowest message holding it
 * (-1, a fired entry's text, is lowest of all).
 */
export function scanTexts(table: KeyTable, texts: readonly ScannedText[], hits: KeyHits = new Map()): KeyHits {
  const record = (ref: PrimaryRef, message: number) => {
    let keys = hits.get(ref.slot)
    if (!keys) hits.set(ref.slot, (keys = new Map()))
    const was = keys.get(ref.key)
    if (was === undefined || message < was) keys.set(ref.key, message)
  }
  for (const { scan, message } of texts) {
    for (const [mode, found] of [
      ['exact', scan.exact],
      ['folded', scan.folded],
    ] as const) {
      for (const [id, at] of found) {
        for (const ref of table.primary[mode][id]!) if (at === 2 || !ref.wholeWords) record(ref, message)
      }
    }
    for (const id of scan.regex) for (const ref of table.primary.regex[id]!) record(ref, message)
  }
  return hits
}

/** How many of the secondary keys are in a text that counts (`within` its message). */
export function secondaryMatches(
  refs: readonly KeyRef[],
  texts: readonly ScannedText[],
  within: (message: number) => boolean,
): number {
  let n = 0
  for (const ref of refs) if (texts.some((t) => within(t.message) && holds(t.scan, ref))) n++
  return n
}
