import { isMember, kindsAsked } from './nounKinds'
import { queryWords } from './queryWords'
import { relatedWords } from './relatedWords'
import { SPEAKER } from './speakers'
import type { MemoryStore } from '../store/store'
import { tuning } from './tuning'
import { unitRowsOf } from '../store/unitRows'
import { UnitKind } from '../store/enums'
import { wordIndexOf } from './wordIndex'

/** A word search: its ranking, with what the learned ranker (rankFeatures.ts) reads beside it. */
export interface WordSearch {
  /** Best first, with its BM25 (feedback words included). */
  ranked: Array<[number, number]>
  /** BM25 over the query's own words, before feedback words. */
  plain: ReadonlyMap<number, number>
  /** The units each query word brought. */
  byWord: ReadonlyMap<string, ReadonlySet<number>>
  words: readonly string[]
  names: ReadonlySet<string>
  /** Units naming a member of a kind the query asks for (nounKinds.ts), best first, with their BM25. */
  kinds: Array<[number, number]>
}

/**
 * Units ranked by BM25 over the stemmed word index (units_words), best first, with its score.
 * BM25 adds up over the query's words, so each word is its own FTS5 query: a rare word brings
 * every unit it is in, a very common one only its newest `wordsPerTerm` (its weight is near nil
 * anyway, and ranking all of its rows would cost ~100 ms at 100k units). Names count
 * `nameWeight` times. (Phrases of adjacent query words, searched as such, changed nothing on
 * LoCoMo conversations 0–2 and cost a query each: left out.) Words WordNet puts beside the
 * query's ("exercise" → "workout", "child" → "childhood": relatedWords.ts) count `relatedWeight`
 * times. With `lend` (no embedding model answers), a reply to a question holding the query's
 * words gets their score too, at `lentWeight` (replies). The best `limit` only, when given.
 * Beside it, the units naming members of the kinds the query asks for (kindSearch).
 */
export function wordSearch(store: MemoryStore, query: string, limit = Infinity, lend = false): WordSearch {
  const { words, names } = queryWords(query)
  const byWord = new Map<string, Set<number>>()
  if (words.length === 0) return { ranked: [], plain: new Map(), byWord, words, names, kinds: [] }
  const fts = (term: string) =>
    store
      .prepare(
        `SELECT rowid AS id, bm25(units_words) AS s FROM units_words WHERE units_words MATCH ? ORDER BY rowid DESC LIMIT ?`,
      )
      .all(`"${term}"`, tuning.wordsPerTerm) as Array<{ id: number; s: number }>
  const index = store.db.inTransaction ? null : wordIndexOf(store)
  const scores = new Map<number, number>()
  // Each word's rows from the kept index (wordIndex.ts), or from FTS5 itself: the same rows and scores.
  // The rows each searched term brought: a related word the stemmer makes a term already searched
  // ("painting" → "paint") brings the same rows, and is not counted twice. Compared row by row
  // when asked, not keyed by a string of every row: building that key for each term was the
  // pack's costliest line, a common word bringing hundreds of rows.
  const searched: Array<ReadonlyArray<{ id: number; s: number }>> = []
  // What the query's own words lend the unit after each that holds them (replies).
  const lent = new Map<number, number>()
  const add = (terms: readonly string[], weightOf: (term: string) => number, onlyNew = false, lends = false) => {
    const ranked = index?.rank(terms, tuning.wordsPerTerm)
    for (const term of terms) {
      const rows = ranked?.get(term) ?? fts(term)
      if (onlyNew && rows.length > 0 && searched.some((seen) => sameRows(seen, rows))) continue
      searched.push(rows)
      const weight = weightOf(term)
      const brought = new Set<number>()
      for (const { id, s } of rows) {
        scores.set(id, (scores.get(id) ?? 0) - s * weight)
        if (lends) lent.set(id + 1, (lent.get(id + 1) ?? 0) - s * weight)
        brought.add(id)
      }
      byWord.set(term, brought)
    }
  }
  add(words, (word) => (names.has(word) ? tuning.nameWeight : 1), false, lend && tuning.lentWeight > 0)
  const plain = new Map(scores)
  const related = tuning.relatedWeight > 0 ? relatedTerms(words, names) : []
  add(related, () => tuning.relatedWeight, true)
  const kinds = kindSearch(words, names, (members) => {
    const ranked = index?.rank(members, tuning.wordsPerTerm)
    return members.map((member) => ranked?.get(member) ?? fts(member))
  })
  const result = (ranked: Array<[number, number]>): WordSearch => ({ ranked, plain, byWord, words, names, kinds })
  // Fusion goes by rank, not score: a hit on a word nearly every unit holds (the speaker of a
  // two-person log) must not rank second to a real match, so hits far below the best are dropped.
  // A pack wants the best 80 of ~1,500 hits: those are picked, not every hit sorted.
  const ranked = (): Array<[number, number]> => {
    if (limit < scores.size) return bestHits(scores, limit).map((id) => [id, scores.get(id)!])
    const sorted = byScore(scores)
    const floor = (sorted[0]?.[1] ?? 0) * tuning.wordFloor
    return sorted.filter(([, score]) => score >= floor)
  }
  if (tuning.prfDocs > 0 && tuning.prfWeight > 0)
    add(feedbackTerms(store, bestHits(scores, tuning.prfDocs), [...words, ...related]), () => tuning.prfWeight)
  for (const [id, s] of replies(store, lent, limit)) scores.set(id, (scores.get(id) ?? 0) + s * tuning.lentWeight)
  return result(ranked())
}

/**
 * A reply often says its topic only in the question it answers ("How often do you all work out
 * together?" / "Three times a week"): a unit holding the query's own words lends their BM25 to
 * the unit after it when it asks something (holds a question mark) and that unit is the next
 * turn of its conversation (an episode of the same flow and source). Of what was lent, the
 * `keep` most (every one when there is no limit) are checked, the rest left: a pack reads the
 * rows of ~80 replies and the turns before them.
 */
function replies(store: MemoryStore, lent: ReadonlyMap<number, number>, keep: number): Array<[number, number]> {
  if (lent.size === 0) return []
  const best = byScore(lent).slice(0, keep)
  const asked = best.map(([id]) => id - 1)
  const rows = new Map(
    unitRowsOf(store)
      .of([...best.map(([id]) => id), ...asked])
      .map((u) => [u.id, u]),
  )
  const texts = unitRowsOf(store).textsOf(asked)
  return best.filter(([id]) => {
    const [reply, question] = [rows.get(id), rows.get(id - 1)]
    return (
      reply?.kind === UnitKind.EPISODE &&
      question?.kind === UnitKind.EPISODE &&
      reply.origin_flow_id === question.origin_flow_id &&
      reply.source === question.source &&
      (texts.get(id - 1)?.includes('?') ?? false)
    )
  })
}

/** A word the tokenizer (unicode61) reads as one token: letters only. */
const SINGLE_WORD = /^\p{L}+$/u

/**
 * The words WordNet puts beside the query's (relatedWords.ts), names' and numbers' left out,
 * each once and none the query says itself, and only single words: one FTS5 reads as a phrase
 * ("hello" → "how-do-you-do", "jack" → "diddly-squat") is not in the word index and was asked
 * of FTS5 itself on every pack, a phrase of common tokens its costliest query (~0.14 ms of a
 * /api/chat turn's 1.5 ms pack on bench/api). Left out, LoCoMo conversations 0–2 read the same
 * to the fourth digit hashed (0.8784), with the word model (0.8942) and with the sentence model
 * (0.9036), and the synthetic set too (0.9259). A unit they bring counts as a word hit only (the
 * ranker's words_covered reads the query's own words): counting it as covering the word it
 * stands beside was tried (issue 36), conversations 0–2 hashed 0.8673 → 0.8689, with the
 * sentence model 0.9005 → 0.8989 (single-hop 0.971 → 0.961). Not kept.
 */
function relatedTerms(words: readonly string[], names: ReadonlySet<string>): string[] {
  const out = new Set<string>()
  for (const word of words)
    if (!names.has(word) && !/\d/.test(word)) for (const related of relatedWords(word)) out.add(related)
  for (const word of words) out.delete(word)
  return [...out].filter((word) => SINGLE_WORD.test(word))
}

/**
 * Units that name a member of a kind the query asks for ("Which cities…" → "Rome"), by BM25
 * over those members. Only members the memory holds, in few units (`kindRows`: one in many is
 * no sign of an answer), each a member in its first sense ("reading" is a city, but first an
 * activity); the rarest `kindTerms`, and the best `kindKeep` units.
 */
function kindSearch(
  words: readonly string[],
  names: ReadonlySet<string>,
  rowsOf: (members: string[]) => Array<ReadonlyArray<{ id: number; s: number }>>,
): Array<[number, number]> {
  const kinds = kindsAsked(words, names)
  if (kinds.length === 0) return []
  const members = [...new Set(kinds.flatMap((kind) => kind.words))].filter((member) => !words.includes(member))
  const rows = rowsOf(members)
  const found = members
    .map((member, i) => ({ member, rows: rows[i]! }))
    .filter(({ rows }) => rows.length > 0 && rows.length <= tuning.kindRows)
    .filter(({ member }) => isMember(member, kinds))
    .sort((a, b) => a.rows.length - b.rows.length || a.member.localeCompare(b.member))
    .slice(0, tuning.kindTerms)
  const scores = new Map<number, number>()
  for (const { rows } of found) for (const { id, s } of rows) scores.set(id, (scores.get(id) ?? 0) - s)
  return byScore(scores).slice(0, tuning.kindKeep)
}

function sameRows(a: ReadonlyArray<{ id: number; s: number }>, b: ReadonlyArray<{ id: number; s: number }>): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i]!.id !== b[i]!.id || a[i]!.s !== b[i]!.s) return false
  return true
}

/** Every id with its score, best first (ties: the newer). */
function byScore(scores: ReadonlyMap<number, number>): Array<[number, number]> {
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])
}

/** The k best ids by score (ties: the newer), best first: ranked().slice(0, k), without sorting every hit. */
export function bestHits(scores: ReadonlyMap<number, number>, k: number): number[] {
  const ids: number[] = []
  const top: number[] = []
  const better = (id: number, score: number, at: number) => score > top[at]! || (score === top[at]! && id > ids[at]!)
  for (const [id, score] of scores) {
    if (ids.length === k && !better(id, score, k - 1)) continue
    let at = Math.min(ids.length, k - 1)
    while (at > 0 && better(id, score, at - 1)) {
      ids[at] = ids[at - 1]!
      top[at] = top[at - 1]!
      at--
    }
    ids[at] = id
    top[at] = score
  }
  // As ranked(): hits far below the best are left out.
  const floor = (top[0] ?? 0) * tuning.wordFloor
  return ids.filter((_, i) => top[i]! >= floor)
}

/**
 * Pseudo-relevance feedback: words that several of the best hits share but the query did not
 * say ("camping" → "campfire", "marshmallows") are searched too, at a lower weight.
 */
function feedbackTerms(store: MemoryStore, best: readonly number[], said: readonly string[]): string[] {
  if (best.length < 2) return []
  const seenIn = new Map<string, number>()
  for (const words of unitRowsOf(store).derivedOf('feedbackWords', best, feedbackWords).values())
    for (const word of words) if (!said.includes(word)) seenIn.set(word, (seenIn.get(word) ?? 0) + 1)
  return [...seenIn.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, tuning.prfTerms)
    .map(([word]) => word)
}

/** Makes the feedback words of these units now (they are kept), so a pack that finds them need not. */
export function warmFeedbackWords(store: MemoryStore, ids: readonly number[]): void {
  if (ids.length > 0) unitRowsOf(store).derivedOf('feedbackWords', ids, feedbackWords)
}

/** A text's words that may feed back: content words of 4+ letters, not numbers, each once (its speaker left out). */
function feedbackWords(text: string): string[] {
  return queryWords(text.replace(SPEAKER, '')).words.filter((word) => word.length >= 4 && !/^\d+$/.test(word))
}
