import { LRUCache } from 'lru-cache'
import { LogReader, tableLog } from '../../kernel/changeLogReader'
import { logHeadsOf } from '../store/logHeads'
import { runInSlices } from '../store/slices'
import type { MemoryStore } from '../store/store'
import { UnitLengths } from './unitLengths'

/** units_words' tokenizer (memory migration 5): the scratch table below must split text the same way. */
export const WORD_TOKENIZER = 'porter unicode61 remove_diacritics 2'

/** FTS5's bm25() constants (fts5_aux.c). */
const K1 = 1.2
const B = 0.75

/**
 * Past this many logged changes, the lengths are read afresh and the postings forgotten (read
 * again as queries need them): applying them one by one splits each text again, ~0.1 ms a
 * unit, so an import of 90k units held the main thread ~10 s; reading 100k lengths takes ~0.25 s.
 */
const RELOAD_AFTER = 2_000

/** Units' lengths read a page at a time when the index loads (~5 ms a page). */
const LENGTHS_PAGE = 4096

/** Posting entries kept in memory (an entry is a unit id and its count: ~16 bytes). */
const KEPT_ENTRIES = 2_000_000

/**
 * A term in up to this many units is read whole from FTS5's index (every occurrence: the
 * counts come with it). One in more keeps only its newest NEWEST_KEPT, and how many there are:
 * a pack scores a term's newest `tuning.wordsPerTerm` (100) only. At a million units a common
 * word is in ~200,000 of them: reading its every occurrence took ~0.3–1.5 s, in the first pack
 * that asked for it.
 */
const TAIL_KEPT = 1_000

/**
 * The newest units a term in more than TAIL_KEPT keeps: the ones a pack scores
 * (tuning.wordsPerTerm, 100), and room for some of them to be deleted before the term is read
 * again. Their counts come from splitting their texts again (~0.05 ms a text), as FTS5 reads
 * occurrences only from a term's oldest up: with 250 kept, the split was most of a common
 * word's first read at a million units, and of the word search's p95.
 */
const NEWEST_KEPT = 128

/** One term's units, ascending, each with how often the term occurs in it (the newest TAIL_KEPT of them). */
interface Postings {
  ids: number[]
  counts: number[]
  /** Units that hold the term: more than `ids` when only the newest were kept. */
  hits: number
}

/**
 * BM25 over units_words without asking FTS5 for it on every pack. FTS5's bm25() counts every
 * row that holds a term before it scores the first (the IDF needs it), and reads each scored
 * row's length from its docsize table: ~0.2 ms a term at 10k units, and a pack asks for a dozen
 * terms (the query's words and the feedback words), a third of the pack's time.
 *
 * Here a term's postings are read once from FTS5's own index (an fts5vocab table: the same
 * stems, nothing tokenised twice differently) and kept; the units' lengths are read once from
 * units_words_docsize. Both follow the `unit_changes` log (memory migration 9): a unit whose
 * docsize `origin` moved had its text rewritten (or was deleted), so it leaves every kept
 * posting and goes back in with its new text's terms (split by a scratch FTS5 table with the
 * same tokenizer). The score is bm25()'s formula on the same counts: the ranking is FTS5's to
 * the last bit (tests compare them). Inside a transaction the caller asks FTS5 itself.
 */
export class WordIndex {
  /** Sized as read (a unit added since is not counted: a few a turn). */
  private readonly postings = new LRUCache<string, Postings>({
    maxSize: KEPT_ENTRIES,
    sizeCalculation: (p) => p.ids.length + 1,
  })
  /** Each unit's length in tokens and its docsize origin (a new one for each rewrite). */
  private readonly lengths = new UnitLengths()
  /** FTS5's own row and token totals (its averages record), which bm25() divides by. */
  private totals = { rows: 0, tokens: 0 }
  private changes: LogReader<{ seq: number; unit_id: number }> | null = null
  /** A load under way in slices (loadInSlices); until it is done, rank answers null (FTS5 answers). */
  private slices: Generator<void, void> | null = null
  /**
   * Every term units_words holds, read with the lengths; terms of texts taken in since are
   * added (a term whose units were all deleted may stay: its postings are read, and empty). A
   * term not in it has no postings to read: a kind's members (nounKinds.ts) are hundreds of
   * words a query, most of which a memory never used.
   *
   * With each, how many units hold it, as FTS5's vocabulary counts them (bm25()'s IDF needs it):
   * read with the terms at no extra cost (the vocabulary counts every term's units to list it)
   * and counted on as new units come, it spares a common term's first read counting its units
   * again (~14 ms for a word in 200,000 units at a million, a busy machine: most of a pack's
   * word search when the query has a word not asked before). Exact while `unitsCounted`.
   */
  private terms: Map<string, number> | null = null
  /**
   * Whether the counts in `terms` are exact: not once a unit kept was rewritten or deleted (the
   * terms its old text had are not known), nor after a load in slices that writes overlapped.
   * Until the next load, a common term's count is then asked of the vocabulary.
   */
  private unitsCounted = false
  /** A query word's stems (usually one), by the word. */
  private readonly stems = new LRUCache<string, string[]>({ max: 10_000 })
  /** Counters the tests read. */
  readonly stats = { loads: 0, postingReads: 0, applied: 0, occurrencesRead: 0, vocabularyCounts: 0 }

  constructor(private readonly store: MemoryStore) {
    store.db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.loom_word_instances USING fts5vocab(main, units_words, instance);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.loom_word_terms USING fts5vocab(main, units_words, row);
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.loom_word_scratch USING fts5(text, content = '', tokenize = '${WORD_TOKENIZER}');
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.loom_word_scratch_terms USING fts5vocab(temp, loom_word_scratch, instance);
    `)
  }

  /**
   * Each word's units as `SELECT rowid, bm25(units_words) … MATCH '"word"' ORDER BY rowid DESC
   * LIMIT newest` returns them (negative scores, best lowest), by the word; a word FTS5 reads as
   * a phrase of several tokens ("don't") is left out: the caller asks FTS5 for it. Null inside a
   * transaction, whose writes may still roll back, and while the index loads in slices.
   */
  rank(words: readonly string[], newest: number): Map<string, Array<{ id: number; s: number }>> | null {
    const { db } = this.store
    // A common term keeps its newest NEWEST_KEPT units only: more is FTS5's to answer.
    if (db.inTransaction || this.slices || newest > NEWEST_KEPT) return null
    // Read before the transaction: reading the log may trim it, a write. What committed after
    // it is applied again at the next call, which changes nothing (see apply).
    let changed = this.changes ? this.changes.next() : null
    // Words never stemmed before go through the tokenizer together: a kind's members
    // (nounKinds.ts) are hundreds of words at once, three statements each when split one by one.
    this.stemAll(words)
    const run = () => {
      this.takeIn(changed)
      const out = new Map<string, Array<{ id: number; s: number }>>()
      for (const word of words) {
        const stems = this.stemsOf(word)
        if (stems.length === 1)
          out.set(word, this.known(stems[0]!) ? this.score(this.postingsOf(stems[0]!, word, newest), newest) : [])
      }
      return out
    }
    // Nothing written since the last call and every posting kept: nothing to read (the usual
    // case between two turns' packs). Otherwise one read transaction, so the lengths, the
    // totals and the postings come from one snapshot.
    const kept =
      changed !== null &&
      changed.length === 0 &&
      words.every((word) => {
        const stems = this.stemsOf(word)
        return stems.length !== 1 || !this.known(stems[0]!) || this.usable(this.postings.peek(stems[0]!), newest)
      })
    if (kept) return run()
    // Postings are read from FTS5 now: what it holds is in the log, read afresh (the heads the
    // pack read may be a moment old), so every unit read has its length.
    if (changed?.length === 0) changed = this.changes!.next(true)
    return db.transaction(run).deferred()
  }

  /**
   * Takes in what was written since the last call, so the next ranking has nothing to apply
   * (memory/retrieval/indexCatchUp.ts calls it between turns); past RELOAD_AFTER changes (an import), by
   * loading again in slices. Nothing before the first ranking or load: nothing is kept to bring
   * up to date.
   */
  async catchUp(): Promise<void> {
    if (!this.changes || this.store.db.inTransaction || this.slices) return
    const changed = this.changes.next()
    if (changed === null || changed.length > RELOAD_AFTER) return this.loadInSlices()
    if (changed.length > 0) this.store.db.transaction(() => this.takeIn(changed)).deferred()
  }

  /**
   * Reads every unit's length afresh, in slices of about `sliceMs` with the event loop running
   * between them (at once it held the main thread ~0.25 s at 100k units). The memory starts it
   * when it opens a persona's store, and after an import; until it is done, packs ask FTS5.
   */
  async loadInSlices(sliceMs = 8): Promise<void> {
    if (this.slices || this.store.db.inTransaction) return
    this.slices = this.loadSteps()
    try {
      await runInSlices(this.store.db, this.slices, sliceMs)
    } finally {
      this.slices = null
    }
  }

  /**
   * Applies logged changes; past RELOAD_AFTER of them (an import), or when the log was trimmed
   * past us (null), everything is read afresh instead.
   */
  private takeIn(changed: ReadonlyArray<{ unit_id: number }> | null): void {
    if (changed === null || changed.length > RELOAD_AFTER) this.load()
    else if (changed.length > 0) this.apply(changed)
    if (changed === null || changed.length > 0) this.readTotals()
  }

  /** Whether units_words may hold the term (always, before the terms are read). */
  private known(term: string): boolean {
    return this.terms?.has(term) ?? true
  }

  private score(p: Postings, newest: number): Array<{ id: number; s: number }> {
    const { rows, tokens } = this.totals
    const { hits } = p
    if (hits === 0 || rows === 0) return []
    let idf = Math.log((rows - hits + 0.5) / (hits + 0.5))
    if (idf <= 0) idf = 1e-6
    const avgdl = tokens / rows
    const out: Array<{ id: number; s: number }> = []
    for (let i = p.ids.length - 1; i >= 0 && out.length < newest; i--) {
      const id = p.ids[i]!
      const f = p.counts[i]!
      const d = this.lengths.tokensOf(id)
      out.push({ id, s: -1 * ((idf * (f * (K1 + 1))) / (f + K1 * (1 - B + (B * d) / avgdl))) })
    }
    return out
  }

  /**
   * Whether kept postings still hold a term's newest `newest` units: deletes among a common
   * term's newest ones may leave fewer (it is read again).
   */
  private usable(p: Postings | undefined, newest: number): p is Postings {
    return p !== undefined && p.ids.length >= Math.min(newest, p.hits)
  }

  /** A term's postings, kept or read: `word` is a query word FTS5 makes the term of (one term). */
  private postingsOf(term: string, word: string, newest: number): Postings {
    const kept = this.postings.get(term)
    if (this.usable(kept, newest)) return kept
    this.stats.postingReads++
    // Newest first, one more than a term read whole holds: whether it is one.
    const units = this.store
      .prepare(`SELECT rowid FROM units_words WHERE units_words MATCH ? ORDER BY rowid DESC LIMIT ${TAIL_KEPT + 1}`)
      .pluck()
      .all(`"${word.replace(/"/g, '""')}"`) as number[]
    const p = units.length > TAIL_KEPT ? this.newestPostings(term, units.slice(0, NEWEST_KEPT)) : this.allPostings(term)
    this.postings.set(term, p)
    return p
  }

  /** Every unit that holds the term, from FTS5's index. */
  private allPostings(term: string): Postings {
    const ids: number[] = []
    const counts: number[] = []
    // One row per occurrence, in unit order (FTS5 merges its segments by rowid). all() is ~3×
    // faster than iterating here.
    const docs = this.store
      .prepare('SELECT doc FROM temp.loom_word_instances WHERE term = ?')
      .pluck()
      .all(term) as number[]
    this.stats.occurrencesRead += docs.length
    if (docs.some((doc, i) => i > 0 && doc < docs[i - 1]!)) docs.sort((a, b) => a - b)
    for (const doc of docs) {
      if (ids.at(-1) === doc) counts[counts.length - 1]!++
      else {
        ids.push(doc)
        counts.push(1)
      }
    }
    return { ids, counts, hits: ids.length }
  }

  /**
   * A common term's newest units (`newestFirst`), each with how often the texts say it, and how
   * many units hold it: fts5vocab counts them without handing each to JavaScript (~40 ns a unit).
   */
  private newestPostings(term: string, newestFirst: readonly number[]): Postings {
    const ids = [...newestFirst].reverse()
    const texts = this.store
      .prepare('SELECT f.rowid AS id, f.text FROM json_each(?) j JOIN units_fts f ON f.rowid = j.value')
      .raw(true)
      .all(JSON.stringify(ids)) as Array<[number, string]>
    const said = this.split(texts)
    // Counted only when every unit this read sees was counted: a unit another connection wrote
    // since the log was read is in the query above, and in the vocabulary's count.
    const hits = this.unitsCounted && !this.changes?.behind() ? this.terms?.get(term) : this.vocabularyCount(term)
    return { ids, counts: ids.map((id) => said.get(id)?.get(term)?.count ?? 0), hits: hits ?? ids.length }
  }

  /** How many units hold the term, counted by FTS5's vocabulary (every one of its units read). */
  private vocabularyCount(term: string): number | undefined {
    this.stats.vocabularyCounts++
    return this.store.prepare('SELECT doc FROM temp.loom_word_terms WHERE term = ?').pluck().get(term) as
      number | undefined
  }

  /** The stems FTS5 makes of a query word (a phrase of them when it splits). */
  private stemsOf(word: string): string[] {
    let stems = this.stems.get(word)
    if (!stems) {
      this.stemAll([word])
      stems = this.stems.get(word)!
    }
    return stems
  }

  /** Stems the words not stemmed yet, all in one pass of the tokenizer, and keeps their stems. */
  private stemAll(words: readonly string[]): void {
    const fresh: string[] = []
    for (const word of new Set(words)) {
      if (this.stems.has(word)) continue
      // A number is its own one term: unicode61 keeps digits together, and no Porter rule ends
      // in a digit. A query with a number new to the index (a chat's "turn 1234") went through
      // the scratch table, a write transaction, for it.
      if (/^[0-9]+$/.test(word)) this.stems.set(word, [word])
      else fresh.push(word)
    }
    if (fresh.length === 0) return
    // One transaction for the scratch table's writes (a savepoint inside a caller's).
    const split = this.store.db.transaction(() => this.split(fresh.map((word, i) => [i + 1, word]))).deferred()
    fresh.forEach((word, i) => {
      const terms = split.get(i + 1) ?? new Map<string, { count: number; first: number }>()
      this.stems.set(
        word,
        [...terms.entries()].sort((a, b) => a[1].first - b[1].first).map(([term]) => term),
      )
    })
  }

  /**
   * Texts' terms as units_words' tokenizer makes them: how often each occurs, and where first,
   * by the text's id. All texts go through the scratch table at once (three statements).
   */
  private split(texts: ReadonlyArray<[number, string]>): Map<number, Map<string, { count: number; first: number }>> {
    const out = new Map<number, Map<string, { count: number; first: number }>>()
    if (texts.length === 0) return out
    const insert = this.store.prepare('INSERT INTO temp.loom_word_scratch (rowid, text) VALUES (?, ?)')
    try {
      for (const [id, text] of texts) insert.run(id, text)
      const rows = this.store
        .prepare('SELECT doc, term, "offset" AS at FROM temp.loom_word_scratch_terms')
        .all() as Array<{ doc: number; term: string; at: number }>
      for (const { doc, term, at } of rows) {
        let terms = out.get(doc)
        if (!terms) out.set(doc, (terms = new Map()))
        const seen = terms.get(term)
        if (seen) {
          seen.count++
          seen.first = Math.min(seen.first, at)
        } else terms.set(term, { count: 1, first: at })
      }
    } finally {
      // Contentless: emptied at once, where deleting row by row read each text back.
      this.store.prepare("INSERT INTO temp.loom_word_scratch (loom_word_scratch) VALUES ('delete-all')").run()
    }
    return out
  }

  /**
   * Applies logged writes. A unit whose docsize origin is the one kept was not rewritten (its
   * row changed: state, pin…) or was already applied: nothing to do, so applying twice is safe.
   */
  private apply(changed: ReadonlyArray<{ unit_id: number }>): void {
    this.stats.applied += changed.length
    const written: number[] = []
    for (const id of new Set(changed.map((c) => c.unit_id))) {
      const now = this.store.prepare('SELECT sz, origin FROM units_words_docsize WHERE id = ?').get(id) as
        { sz: Buffer; origin: number } | undefined
      const was = this.lengths.get(id)
      if (was && now && was.origin === now.origin) continue
      // The text was rewritten, or the unit is gone, or it is new.
      if (was) {
        this.unitsCounted = false
        this.lengths.delete(id)
        // A unit older than a term's kept units may or may not hold it: that term is read again.
        for (const [term, p] of [...this.postings.entries()]) if (!remove(p, id)) this.postings.delete(term)
      }
      if (!now) continue
      this.lengths.set(id, varints(now.sz, 1)[0]!, now.origin)
      written.push(id)
    }
    if (written.length === 0 || (this.postings.size === 0 && !this.terms)) return
    const texts = this.store
      .prepare('SELECT f.rowid AS id, f.text FROM json_each(?) j JOIN units_fts f ON f.rowid = j.value')
      .raw(true)
      .all(JSON.stringify(written)) as Array<[number, string]>
    for (const [id, terms] of this.split(texts))
      for (const [term, { count }] of terms) {
        // One more unit holds it: a unit new to the index (a rewritten one left the counts inexact).
        this.terms?.set(term, (this.terms.get(term) ?? 0) + 1)
        const p = this.postings.peek(term)
        if (p && !insert(p, id, count)) this.postings.delete(term)
      }
  }

  /** Reads every unit's length afresh and forgets every posting (first use, or the log was trimmed past us). */
  private load(): void {
    for (const _ of this.loadSteps());
  }

  /**
   * The load a page of lengths at a time. The log is read from where the load starts: what is
   * written between pages is applied after it, and a unit a page already read as rewritten is
   * left as it is (see apply).
   */
  private *loadSteps(): Generator<void, void> {
    this.stats.loads++
    const log = tableLog<{ seq: number; unit_id: number }>(this.store.prepare, 'unit_changes', 'unit_id')
    const start = log.last()
    const heads = logHeadsOf(this.store.db)
    this.changes = new LogReader(log, () => heads.head('unit_changes'))
    this.postings.clear()
    this.lengths.clear()
    this.terms = null
    this.unitsCounted = false
    const page = this.store.prepare(
      `SELECT id, sz, origin FROM units_words_docsize WHERE id > ? ORDER BY id LIMIT ${LENGTHS_PAGE}`,
    )
    for (let after = -1; ; yield) {
      const rows = page.raw(true).all(after) as Array<[number, Buffer, number]>
      for (const [id, sz, origin] of rows) this.lengths.set(id, varints(sz, 1)[0]!, origin)
      if (rows.length < LENGTHS_PAGE) break
      after = rows.at(-1)![0]
    }
    const terms = new Map<string, number>()
    const termPage = this.store.prepare(
      `SELECT term, doc FROM temp.loom_word_terms WHERE term > ? ORDER BY term LIMIT ${LENGTHS_PAGE}`,
    )
    for (let after = ''; ; yield) {
      const rows = termPage.raw(true).all(after) as Array<[string, number]>
      for (const [term, units] of rows) terms.set(term, units)
      if (rows.length < LENGTHS_PAGE) break
      after = rows.at(-1)![0]
    }
    this.terms = terms
    // A unit written between two pages may be counted in a term's units and be new to the
    // lengths as well (counted again when applied), or the other way round: counts are kept
    // only when nothing was written while the pages were read (always, for a load at once).
    this.unitsCounted = log.last() === start
    this.readTotals()
  }

  /**
   * FTS5's totals from its averages record (units_words_data row 1: rows, then tokens). They
   * are not the live units' count and length: deleting from a contentless_delete table leaves
   * them as they were, and bm25() divides by them all the same, so they are read, not summed.
   */
  private readTotals(): void {
    const block = this.store.prepare('SELECT block FROM units_words_data WHERE id = 1').pluck().get() as
      Buffer | undefined
    const [rows = 0, tokens = 0] = block ? varints(block, 2) : []
    this.totals = { rows, tokens }
  }
}

/**
 * The first `n` varints of an FTS5 record, in SQLite's varint format: big-endian, 7 bits a byte
 * with the high bit for "more", and all 8 bits of a ninth byte.
 */
function varints(blob: Buffer, n: number): number[] {
  const out: number[] = []
  let at = 0
  while (out.length < n && at < blob.length) {
    let v = 0
    for (let i = 0; at < blob.length; i++) {
      const byte = blob[at++]!
      if (i === 8) {
        v = v * 256 + byte
        break
      }
      v = v * 128 + (byte & 0x7f)
      if ((byte & 0x80) === 0) break
    }
    out.push(v)
  }
  return out
}

/** Index of `id` in ascending `ids`, or where it would go (as ~index - 1 when absent). */
function find(ids: readonly number[], id: number): number {
  let lo = 0
  let hi = ids.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const v = ids[mid]!
    if (v === id) return mid
    if (v < id) lo = mid + 1
    else hi = mid - 1
  }
  return -(lo + 1)
}

/** Whether the postings are only the newest of the term's units, and `id` is older than all of them. */
function beforeKept(p: Postings, id: number): boolean {
  return p.ids.length < p.hits && (p.ids.length === 0 || id < p.ids[0]!)
}

/** Takes `id` out; false when it cannot be told whether `id` held the term (beforeKept). */
function remove(p: Postings, id: number): boolean {
  if (beforeKept(p, id)) return false
  const at = find(p.ids, id)
  if (at < 0) return true
  p.ids.splice(at, 1)
  p.counts.splice(at, 1)
  p.hits--
  return true
}

/** Puts `id` in with its count; false when it falls before the units kept (beforeKept). */
function insert(p: Postings, id: number, count: number): boolean {
  if (beforeKept(p, id)) return false
  const at = find(p.ids, id)
  if (at >= 0) {
    p.counts[at] = count
    return true
  }
  const to = -at - 1
  p.hits++
  if (to === p.ids.length) {
    p.ids.push(id)
    p.counts.push(count)
  } else {
    p.ids.splice(to, 0, id)
    p.counts.splice(to, 0, count)
  }
  return true
}

const indexes = new WeakMap<MemoryStore, WordIndex>()

/** The word index of one memory store. */
export function wordIndexOf(store: MemoryStore): WordIndex {
  let index = indexes.get(store)
  if (!index) indexes.set(store, (index = new WordIndex(store)))
  return index
}
