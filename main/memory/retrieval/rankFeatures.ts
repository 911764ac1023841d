import { rrf, type Hit } from './hits'
import type { RetrievalLists } from './retrieval'
import { namedSpeaker } from './speakers'
import { isoDate, type MemoryStore } from '../store/store'
import type { NamedTime } from './timeWindow'
import { unitRowsOf } from '../store/unitRows'

// What the learned ranker (ranker.ts) reads of each unit retrieval found: where each search
// ranked it, what it shares with the query, and a few plain facts of its text. Every value
// is a number; order and meaning are FEATURES'. bench/memory/fitRanker.ts fits the weights.

/** The features, in order. Changing them means fitting again (bench/memory/fitRanker.ts). */
export const FEATURES = [
  'fused_score', // the hand-weighted fusion (retrieval.ts), with speaker, time and entity boosts, over the best hit's
  'words_rrf', // BM25's reciprocal rank
  'words_score', // BM25 over the best's, feedback words included
  'plain_words_score', // BM25 over the query's own words only, over the best's
  'feedback_only', // found by feedback words alone
  'trigrams_rrf',
  'vectors_rrf',
  'vectors_similarity',
  'spoken_by_named', // its speaker is someone the query names
  'spoken_by_other', // the query names someone, and not its speaker
  'in_named_time', // of the day, month or year the query names (said then, or telling of it)
  'neighbour', // came only as the turn beside a hit
  'neighbour_of_score', // that hit's fused score over the best's
  'entity_linked',
  'log_tokens',
  'asks', // holds a question mark: questions restate a topic more than they answer it
  'words_covered', // share of the query's words it holds
  'day_crowd', // share of the best 20 hits from its day
  'rare_words_covered', // the same, each word weighted by its rarity
  'words_log_rank',
  'vectors_log_rank',
  'query_words', // how many content words the query has
  'query_names', // whether the query names anyone
  'meaning_rrf',
  'sentences_rrf',
  'kinds_rrf', // names a member of a kind the query asks for (nounKinds.ts)
  // The turns either side, when retrieval found them: an answer often shares no word with the
  // question while the turn before it, which asked, does ("Your favourite style?" / "Contemporary").
  'previous_score', // the turn before's fused score over the best's
  'previous_asks_score', // the same, when the turn before holds a question mark
  'next_score',
] as const

/** A rank's place when a list did not bring the unit at all (log of ~400). */
const UNRANKED_LOG = 6

/** The FEATURES of each hit. */
export function rankFeatures(
  store: MemoryStore,
  query: string,
  hits: ReadonlyMap<number, Hit>,
  lists: RetrievalLists,
  linked: ReadonlyMap<number, string>,
  time: NamedTime | null = null,
): Map<number, number[]> {
  const out = new Map<number, number[]>()
  eachFeatures(store, hits, lists, linked, time, (id, features) => out.set(id, [...features]))
  return out
}

/** Where eachFeatures writes each hit's features: one array, written over for the next hit. */
const written: number[] = FEATURES.map(() => 0)

/**
 * Hands `visit` each hit's FEATURES, in one array written over for the next hit: a pack needs
 * only each hit's relevance, and an array for each of ~200 hits was a tenth of what it allocated.
 */
export function eachFeatures(
  store: MemoryStore,
  hits: ReadonlyMap<number, Hit>,
  lists: RetrievalLists,
  linked: ReadonlyMap<number, string>,
  time: NamedTime | null,
  visit: (id: number, features: readonly number[]) => void,
): void {
  const { words } = lists
  const rankOf = (ids: Iterable<number>) => {
    const ranks = new Map<number, number>()
    let rank = 0
    for (const id of ids) ranks.set(id, rank++)
    return ranks
  }
  const wordRank = rankOf(words.ranked.map(([id]) => id))
  const trigramRank = rankOf(lists.trigrams.map(([id]) => id))
  const vectorRank = rankOf(lists.vectors.map(([id]) => id))
  const meaningRank = rankOf(lists.meaning.map(([id]) => id))
  const sentenceRank = rankOf(lists.sentences.map(({ id }) => id))
  const kindRank = rankOf(words.kinds.map(([id]) => id))
  const wordScore = new Map(words.ranked)
  const distance = new Map(lists.vectors)
  const share = (rank: number | undefined) => (rank === undefined ? 0 : rrf(rank))
  const logRank = (rank: number | undefined) => (rank === undefined ? UNRANKED_LOG : Math.log(2 + rank))
  const best = (values: Iterable<number>) => {
    let top = 0
    for (const v of values) top = Math.max(top, v)
    return top || 1
  }
  const bestWords = best(wordScore.values())
  const bestPlain = best(words.plain.values())
  const bestScore = best([...hits.values()].map((h) => h.score))
  // The best 20 hits' days: a question's answers gather in the sessions it is about.
  const crowd = new Map<string, number>()
  for (const h of [...hits.values()].sort((a, b) => b.score - a.score).slice(0, 20)) {
    const day = isoDate(h.unit.occurred_at ?? h.unit.created_at)
    crowd.set(day, (crowd.get(day) ?? 0) + 1)
  }
  const rarity = new Map(
    words.words.map((w) => [w, Math.log(1 + lists.units / Math.max(1, words.byWord.get(w)?.size ?? 0))]),
  )
  const allRarity = [...rarity.values()].reduce((a, b) => a + b, 0)
  const inTime = time?.of([...hits.values()].map((h) => h.unit)) ?? new Set<number>()
  const texts = unitRowsOf(store).textsOf([...hits.keys()])
  /** A hit's fused score over the best's; 0 for a unit retrieval did not find. */
  const scoreOf = (id: number) => (hits.get(id)?.score ?? 0) / bestScore
  /** Whether a hit holds a question mark: questions restate a topic more than they answer it. */
  const asks = (id: number) => texts.get(id)?.includes('?') ?? false
  const f = written
  for (const [id, hit] of hits) {
    const text = texts.get(id) ?? ''
    // No name asked, no speaker named: the speaker is not read.
    const byNamed = words.names.size > 0 && namedSpeaker(text, words.names) !== null
    let covered = 0
    let rareCovered = 0
    for (const w of words.words)
      if (words.byWord.get(w)?.has(id)) {
        covered++
        rareCovered += rarity.get(w)!
      }
    const near = hit.near === undefined ? undefined : hits.get(hit.near)
    const previous = scoreOf(id - 1)
    const d = distance.get(id)
    f[0] = scoreOf(id)
    f[1] = share(wordRank.get(id))
    f[2] = (wordScore.get(id) ?? 0) / bestWords
    f[3] = (words.plain.get(id) ?? 0) / bestPlain
    f[4] = wordScore.has(id) && !words.plain.has(id) ? 1 : 0
    f[5] = share(trigramRank.get(id))
    f[6] = share(vectorRank.get(id))
    f[7] = d === undefined ? 0 : 1 - d
    f[8] = byNamed ? 1 : 0
    f[9] = words.names.size > 0 && !byNamed ? 1 : 0
    f[10] = inTime.has(id) ? 1 : 0
    f[11] = hit.near === undefined ? 0 : 1
    f[12] = near ? near.score / bestScore : 0
    f[13] = linked.has(id) ? 1 : 0
    f[14] = Math.log(1 + hit.unit.tokens)
    f[15] = asks(id) ? 1 : 0
    f[16] = words.words.length ? covered / words.words.length : 0
    f[17] = (crowd.get(isoDate(hit.unit.occurred_at ?? hit.unit.created_at)) ?? 0) / 20
    f[18] = allRarity ? rareCovered / allRarity : 0
    f[19] = logRank(wordRank.get(id))
    f[20] = logRank(vectorRank.get(id))
    f[21] = words.words.length
    f[22] = words.names.size > 0 ? 1 : 0
    f[23] = share(meaningRank.get(id))
    f[24] = share(sentenceRank.get(id))
    f[25] = share(kindRank.get(id))
    f[26] = previous
    f[27] = asks(id - 1) ? previous : 0
    f[28] = scoreOf(id + 1)
    visit(id, f)
  }
}
