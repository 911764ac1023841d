import { embedLocal, vectorBlob } from '../store/embedder'
import { Sensitivity, UnitKind, UnitState } from '../store/enums'
import { modelIndexOf } from './modelIndex'
import { nearestByModel } from '../store/modelVectors'
import { isBuiltInModel } from './builtInModels'
import type { MemoryStore } from '../store/store'
import { tuning } from './tuning'
import { vectorIndexOf } from './vectorIndex'
import { rrf, unitsByIds, type Hit } from './hits'
import { wordSearch, type WordSearch } from './wordRanking'
import { CJK } from './queryWords'

// The pack builder's retrieval: FTS5 and KNN candidates (the local vectors, and the persona's
// embedding model's when it answered), fused by rank with recency and salience, the turns
// around the best hits, and units linked to entities the query names.

/**
 * How many candidates each retriever brings before fusion. Of the evidence 0–2's hashed packs
 * miss, five in six are among no list's 80 (bench/memory/misses.ts); at 300 most are, but rank
 * low. 150 words and 150 neighbours, the ranker fitted again, held out in turn (fitRanker.ts):
 * hashed 0.853 / 0.870 / 0.841 against 0.857 / 0.878 / 0.837, with the sentence model
 * 0.904 / 0.886 / 0.877 against 0.896 / 0.901 / 0.873 (issue 36). Not kept.
 */
const FTS_PER_TERM = 400
const FTS_KEEP = 80
const KNN_K = 80
const MAX_TERMS = 8

const STOP = new Set(
  'the and but for with are was were been this that you your our their his her have has had not what when where who how about from did does into than then them they she him its also just like more some will would could should there here which while over very much many any all can may might shall been being these those why'.split(
    ' ',
  ),
)

/** Query words worth searching: 3+ characters (trigram FTS finds nothing shorter), CJK as trigrams. */
export function searchTerms(query: string): string[] {
  const terms = new Set<string>()
  for (const word of query
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(word)) {
      for (let i = 0; i + 3 <= word.length; i++) terms.add(word.slice(i, i + 3))
      continue
    }
    if (word.length < 3 || STOP.has(word)) continue
    terms.add(word.length > 5 ? word.replace(/(ing|ed|es|s)$/, '') : word)
  }
  return [...terms].sort((a, b) => b.length - a.length).slice(0, MAX_TERMS)
}

/** The kinds KNN searches, each with how many neighbours it brings. */
const knnKinds = [
  [UnitKind.EPISODE, KNN_K],
  [UnitKind.FACT, 30],
  [UnitKind.SUMMARY, 15],
] as const

/**
 * The k nearest units of a kind that are not archived (nor SECRET unless allowed), nearest
 * first: from the in-memory vector index (vectorIndex.ts), or from sqlite-vec itself inside a
 * transaction (the index must not take in writes that may still roll back) and while the index
 * loads in slices. `sync: false`
 * when the caller has just synced the index.
 */
export function nearest(
  store: MemoryStore,
  vector: Float32Array,
  kind: UnitKind,
  k: number,
  allowSecret: boolean,
  sync = true,
): Array<{ id: number; distance: number }> {
  const sensitivityBelow = allowSecret ? Sensitivity.SECRET + 1 : Sensitivity.SECRET
  const index = vectorIndexOf(store)
  if (!store.db.inTransaction && index.has(kind) && index.ready) {
    if (sync) index.sync()
    return index.search(vector, kind, k, { excludeState: UnitState.ARCHIVED, sensitivityBelow })
  }
  return store
    .prepare(
      `SELECT unit_id AS id, distance FROM vec_units WHERE embedding MATCH ? AND k = ? AND kind = ? AND state != ? AND sensitivity < ?`,
    )
    .all(vectorBlob(vector), k, kind, UnitState.ARCHIVED, sensitivityBelow) as Array<{ id: number; distance: number }>
}

/** What a pack's retrieval searches for: the query, and its embedding by the persona's model. */
export interface RetrievalQuery {
  query: string
  /** The query embedded by the persona's embedding model: its vectors are searched too. */
  modelVector?: { model: string; vector: readonly number[] }
}

/** The rankings a pack's hits were fused from, which the learned ranker reads (rankFeatures.ts). */
export interface RetrievalLists {
  words: WordSearch
  /** Trigram overlap (Japanese, unknown words), best first, with its score. */
  trigrams: Array<[number, number]>
  /** The local hashed vectors' neighbours, nearest first, with their distance. */
  vectors: Array<[number, number]>
  /** The persona's embedding model's neighbours, nearest first. */
  meaning: Array<[number, number]>
  /** Episodes by their nearest sentence (the embedding model), nearest first. */
  sentences: Array<{ id: number; distance: number }>
  /** How many units the memory has (its largest id): what a word's rarity is measured against. */
  units: number
}

/** The fused hits, and the rankings they were fused from (for the learned ranker). */
export interface Retrieved {
  hits: Map<number, Hit>
  lists: RetrievalLists
}

/**
 * FTS5 and KNN candidates of the retrievable kinds, fused by reciprocal rank with recency,
 * salience and pin. Words rank by BM25 (wordRanking.ts); Japanese by our own IDF-weighted
 * trigram overlap. Both query one term at a time with a rowid-ordered LIMIT: bm25 over a very
 * common term costs ~100 ms at 100k rows.
 */
export function hybridRetrieve(
  store: MemoryStore,
  { query, modelVector }: RetrievalQuery,
  allowSecret: boolean,
  now: number,
  lap: (stage: string) => void = () => {},
): Retrieved {
  const total = Math.max(1, (store.prepare('SELECT max(id) AS n FROM units').get() as { n: number | null }).n ?? 1)
  const fts = new Map<number, number>()
  const ftsStmt = store.prepare(
    `SELECT rowid AS id FROM units_fts WHERE units_fts MATCH ? ORDER BY rowid DESC LIMIT ${FTS_PER_TERM}`,
  )
  // The built-in models read English only: on Japanese their neighbours are noise.
  const byModel = modelVector && !(isBuiltInModel(modelVector.model) && CJK.test(query)) ? modelVector : null
  // The embedding model reads each turn after the one before it (embedJob.embeddingText): the
  // words lend a reply its question's words only when no model answers (tuning.lentWeight).
  const words = wordSearch(store, query, FTS_KEEP, !byModel)
  const wordsRanked = words.ranked
  lap('words')
  // Substrings rank English words badly ("art" in "party", "heart"): the trigram index serves
  // Japanese (which has no spaces for the word index) and queries whose words the word index
  // does not know (LoCoMo conversations 0–2: 0.796 → 0.803 with trigrams kept to that).
  const trigramTerms = searchTerms(query).filter((t) => wordsRanked.length === 0 || CJK.test(t))
  for (const term of trigramTerms) {
    const ids = (ftsStmt.all(`"${term.replace(/"/g, '""')}"`) as Array<{ id: number }>).map((r) => r.id)
    if (ids.length === 0) continue
    const df = ids.length >= FTS_PER_TERM ? Math.max(FTS_PER_TERM, total / 20) : ids.length
    const idf = Math.log(1 + total / df)
    for (const id of ids) fts.set(id, (fts.get(id) ?? 0) + idf)
  }
  const ftsRanked = [...fts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, FTS_KEEP)
  lap('fts')

  const knn = new Map<number, number>()
  if (query.trim()) {
    const vector = embedLocal(query)
    if (!store.db.inTransaction) vectorIndexOf(store).sync()
    for (const [kind, k] of knnKinds)
      for (const row of nearest(store, vector, kind, k, allowSecret, false))
        if (row.distance < 0.95) knn.set(Number(row.id), row.distance)
    lap('knn')
  }
  const knnRanked = [...knn.entries()].sort((a, b) => a[1] - b[1])
  // The embedding model's neighbours, a ranking of their own: meaning the n-grams cannot see.
  const meaning = new Map<number, number>()
  let sentenceRanked: Array<{ id: number; distance: number }> = []
  if (byModel) {
    // The in-memory index (modelIndex.ts) outside a write transaction, sqlite-vec inside one
    // and while the index loads in slices.
    const index = store.db.inTransaction ? null : modelIndexOf(store.db)
    index?.sync()
    const ready = index?.ready ? index : null
    for (const [kind, k] of knnKinds) {
      const { model, vector } = byModel
      const share = Math.ceil(k * tuning.meaningShare)
      const rows = ready
        ? ready.search(model, vector, kind, share)
        : nearestByModel(store.db, model, vector, kind, share)
      for (const row of rows) meaning.set(row.id, row.distance)
    }
    // Episodes by their nearest sentence (embedJob.sentencesOf): from the in-memory index only;
    // inside a write transaction, or while it loads, the pack goes without them.
    sentenceRanked =
      ready?.searchSentences(byModel.model, byModel.vector, Math.ceil(KNN_K * tuning.sentenceShare)) ?? []
  }
  const meaningRanked = [...meaning.entries()].sort((a, b) => a[1] - b[1])
  lap('model-knn')

  const lists: RetrievalLists = {
    words,
    trigrams: ftsRanked,
    vectors: knnRanked,
    meaning: meaningRanked,
    sentences: sentenceRanked,
    units: total,
  }
  const fused = new Map<number, number>()
  eachRanked(lists, (id, score) => fused.set(id, (fused.get(id) ?? 0) + score))
  const out = new Map<number, Hit>()
  if (fused.size === 0) return { hits: out, lists }

  for (const unit of unitsByIds(store, [...fused.keys()])) {
    const ageDays = Math.max(0, (now - (unit.occurred_at ?? unit.created_at)) / 86_400)
    const recency = Math.exp(-ageDays / 90)
    const score = fused.get(unit.id)! + 0.15 * recency + 0.3 * unit.salience + 0.2 * unit.pin
    out.set(unit.id, { unit, score })
  }
  return { hits: out, lists }
}

/**
 * Each place in each ranking, in the order they are fused: the unit, the reciprocal-rank share
 * it adds to its score, and what the inspector reads of it (the ranking, the rank from 0, the
 * value shown).
 */
function eachRanked(
  lists: RetrievalLists,
  visit: (id: number, score: number, label: string, rank: number, shown: number) => void,
): void {
  const each = (ranked: ReadonlyArray<readonly [number, number]>, weight: number, label: string, distance: boolean) =>
    ranked.forEach(([id, v], rank) => visit(id, weight * rrf(rank), label, rank, distance ? 1 - v : v))
  each(lists.words.ranked, tuning.wordWeight, 'words', false)
  each(lists.trigrams, tuning.trigramWeight, 'keyword', false)
  // Beside the embedding model's neighbours, the n-grams' add little (see tuning.ts).
  const vectorWeight = lists.meaning.length > 0 ? tuning.vectorWeightBesideModel : tuning.vectorWeight
  each(lists.vectors, vectorWeight, 'vector', true)
  each(lists.meaning, tuning.meaningWeight, 'meaning', true)
  each(lists.words.kinds, tuning.kindWeight, 'kind member', false)
  lists.sentences.forEach(({ id, distance }, rank) =>
    visit(id, tuning.sentenceWeight * rrf(rank), 'sentence', rank, 1 - distance),
  )
}

/** Each find's reasons from the rankings that brought it ("words #3 (2.41), vector #1 (0.80)"), by unit. */
export function rankingReasons(lists: RetrievalLists): Map<number, string> {
  const why = new Map<number, string>()
  eachRanked(lists, (id, _score, label, rank, shown) => {
    const reason = `${label} #${rank + 1} (${shown.toFixed(2)})`
    const before = why.get(id)
    why.set(id, before === undefined ? reason : `${before}, ${reason}`)
  })
  return why
}

/**
 * The turns around the best episode hits: a question often matches one side of an exchange
 * while the answer sits in the next turn ("Where did you go?" / "To the lake.").
 */
export function addNeighbours(store: MemoryStore, fused: Map<number, Hit>): void {
  const best = [...fused.values()]
    .filter((h) => h.unit.kind === UnitKind.EPISODE)
    .sort((a, b) => b.score - a.score)
    .slice(0, tuning.neighbourHits)
  const wanted = new Map<number, { score: number; came: string; near: number }>()
  for (const h of best)
    for (const id of [h.unit.id - 1, h.unit.id + 1]) {
      if (fused.has(id)) continue
      const score = h.score * tuning.neighbourShare
      if ((wanted.get(id)?.score ?? -1) < score)
        wanted.set(id, { score, came: `next to #${h.unit.id}`, near: h.unit.id })
    }
  for (const unit of unitsByIds(store, [...wanted.keys()]))
    if (unit.kind === UnitKind.EPISODE) fused.set(unit.id, { unit, ...wanted.get(unit.id)! })
}

/** Units tied to entities the query names (by any alias of 3+ characters). */
export function entityLinked(store: MemoryStore, query: string): Map<number, string> {
  const text = query.normalize('NFKC').toLowerCase()
  if (!text.trim()) return new Map()
  const entities = store
    .prepare(
      `SELECT DISTINCT a.entity_id AS id, e.name FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
       WHERE length(a.alias) >= 3 AND instr(?, a.alias) > 0 LIMIT 10`,
    )
    .all(text) as Array<{ id: number; name: string }>
  const out = new Map<number, string>()
  const stmt = store.prepare(
    'SELECT unit_id AS id FROM unit_entities WHERE entity_id = ? ORDER BY unit_id DESC LIMIT 20',
  )
  for (const e of entities)
    for (const { id } of stmt.all(e.id) as Array<{ id: number }>) if (!out.has(id)) out.set(id, e.name)
  return out
}
