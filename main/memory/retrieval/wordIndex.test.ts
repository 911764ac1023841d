import { describe, expect, it } from 'vitest'
import { openMemory } from '../store/db'
import { UnitKind, UnitState } from '../store/enums'
import type { MemoryStore } from '../store/store'
import { WORD_TOKENIZER, wordIndexOf } from './wordIndex'
import { wordSearch } from './wordRanking'
import { seededRandom } from '../../../tests/support/seededRandom'
import { useTwoOpenings } from '../../../tests/support/twoConnections'
import { nextWrite } from '../../../tests/support/randomWrites'

// The word ranking a pack builds on keeps terms' postings between packs. It must rank exactly
// as FTS5's bm25() over units_words would: after every write, from either connection, and
// never with a write that rolled back.

const twoOpenings = useTwoOpenings('memory_test.db', openMemory, (s) => s.db.close())

/** Words with stems in common ("painting", "painted"), capitals, accents and a split one ("don't"). */
const VOCABULARY =
  "painting painted paints lake Lake hiking hiked sunrise café cafe Caroline melanie pottery adoption running runner the a of museum concert guitar violin don't camping campfire 2023 May".split(
    ' ',
  )

/** What FTS5 itself answers for one word, as `rank` promises to. */
function fromFts(store: MemoryStore, word: string, newest: number) {
  return store.db
    .prepare(
      `SELECT rowid AS id, bm25(units_words) AS s FROM units_words WHERE units_words MATCH ? ORDER BY rowid DESC LIMIT ?`,
    )
    .all(`"${word}"`, newest) as Array<{ id: number; s: number }>
}

function setup() {
  const [store, worker] = twoOpenings()
  const next = seededRandom(20261125)
  const sentence = (n: number) =>
    Array.from({ length: n }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]).join(next() < 0.2 ? '. ' : ' ')
  const episode = (s: MemoryStore, text: string) =>
    s.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: text, reply_text: '' } })
  /** Every word's ranking from the index beside FTS5's; words FTS5 reads as a phrase are left to FTS5. */
  const compare = (at: string) => {
    const words = VOCABULARY.filter((w) => w !== "don't")
    const ranked = wordIndexOf(store).rank(words, 7)!
    for (const word of words) {
      const want = fromFts(store, word, 7)
      const got = ranked.get(word)!
      expect(
        got.map((r) => r.id),
        `${at}: "${word}"`,
      ).toEqual(want.map((r) => r.id))
      got.forEach((r, i) => expect(r.s, `${at}: "${word}" #${i}`).toBeCloseTo(want[i]!.s, 12))
    }
  }
  return { store, worker, next, sentence, episode, compare }
}

describe('the kept word index', () => {
  it('splits text as units_words does', () => {
    const { store } = setup()
    const sql = store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'units_words'").pluck().get() as string
    expect(sql.replace(/\s+/g, ' ')).toContain(`tokenize = '${WORD_TOKENIZER}'`)
  })

  it('ranks numbers as FTS5 does, each read as its own term', () => {
    const { store, episode } = setup()
    const numbers = ['7', '12', '2023', '0042', '31415926535', '9'.repeat(70)]
    numbers.forEach((n, i) =>
      episode(store, `I ran ${n} laps on day ${i}, then ${numbers[(i + 1) % numbers.length]} more`),
    )
    const ranked = wordIndexOf(store).rank([...numbers, '404'], 100)
    for (const n of [...numbers, '404']) expect(ranked?.get(n), n).toEqual(fromFts(store, n, 100))
    expect(ranked?.get('2023')?.length).toBe(2)
  })

  it('ranks as FTS5 bm25() after every write from either connection (150 random writes)', () => {
    const { store, worker, next, sentence, episode, compare } = setup()
    for (let i = 0; i < 150; i++) {
      const { by, id, roll: r } = nextWrite(next, [store, worker])
      if (i < 25 || r < 0.35 || id === undefined) episode(by, sentence(1 + Math.floor(next() * 12)))
      else if (r < 0.55) by.editMeta(id, { state: next() < 0.5 ? UnitState.ARCHIVED : UnitState.VALIDATED }, 'test')
      else if (r < 0.8) by.editPayload(id, { user_text: sentence(1 + Math.floor(next() * 12)) }, 'test')
      else by.deleteUnit(id)
      // Ranking after most writes, and sometimes only after several: both must hold.
      if (next() < 0.7) compare(`after write ${i}`)
    }
    compare('at the end')
    const index = wordIndexOf(store)
    // Kept postings were reused, and read from FTS5 again only for terms not kept.
    expect(index.stats.postingReads).toBeLessThan(VOCABULARY.length * 2)
    expect(index.stats.loads).toBe(1)
  })

  it('keeps a common word’s newest units only, and ranks as FTS5 through edits and deletes of older and newer ones', () => {
    const { store, worker, sentence, episode, compare } = setup()
    // 'lake' in 1,500 units: more than a word keeps (TAIL_KEPT, 1,000).
    const ids = store.db
      .transaction(() => Array.from({ length: 1_500 }, (_, i) => episode(store, `the lake ${sentence(3)} ${i}`)))
      .immediate()
    compare('read')
    const reads = wordIndexOf(store).stats.postingReads
    episode(worker, 'a lake at dusk')
    compare('a new unit')
    expect(wordIndexOf(store).stats.postingReads).toBe(reads)
    // Older than the kept units: whether they held a word cannot be told, so those words are read again.
    worker.deleteUnit(ids[3]!)
    worker.editPayload(ids[10]!, { user_text: 'no water here' }, 'test')
    compare('older units edited and deleted')
    // Among the kept ones.
    worker.deleteUnit(ids[1_400]!)
    worker.editPayload(ids[1_450]!, { user_text: 'the lake again, twice: lake' }, 'test')
    compare('newer units edited and deleted')
  })

  it('reads a common word’s newest units only, not its every occurrence, and ranks them as FTS5', () => {
    const { store, episode } = setup()
    store.db
      .transaction(() => {
        for (let i = 0; i < 3_000; i++) episode(store, i % 7 === 0 ? `the lake, the lake ${i}` : `a lake ${i}`)
      })
      .immediate()
    const index = wordIndexOf(store)
    const got = index.rank(['lake'], 100)!.get('lake')!
    const want = fromFts(store, 'lake', 100)
    expect(got.map((r) => r.id)).toEqual(want.map((r) => r.id))
    got.forEach((r, i) => expect(r.s).toBeCloseTo(want[i]!.s, 12))
    // Its 3,429 occurrences were not handed over one by one.
    expect(index.stats.occurrencesRead).toBe(0)
  })

  it('reads no postings for a word the memory never used, and finds it once a unit does', () => {
    const { store, worker, episode } = setup()
    episode(store, 'painting the lake at sunrise')
    const index = wordIndexOf(store)
    expect(index.rank(['painting'], 7)!.get('painting')).toHaveLength(1)
    const reads = index.stats.postingReads
    // A kind's members (nounKinds.ts) are hundreds of such words a query.
    expect(index.rank(['zebra', 'aardvarks'], 7)).toEqual(
      new Map([
        ['zebra', []],
        ['aardvarks', []],
      ]),
    )
    expect(index.stats.postingReads).toBe(reads)
    const id = episode(worker, 'A zebra at the zoo')
    expect(
      index
        .rank(['zebras'], 7)!
        .get('zebras')!
        .map((r) => r.id),
    ).toEqual([id])
  })

  it('reads everything afresh after an import, rather than splitting each new text again', () => {
    const { store, worker, sentence, compare } = setup()
    for (let i = 0; i < 20; i++) store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: sentence(8) } })
    compare('before')
    const index = wordIndexOf(store)
    const loads = index.stats.loads
    const applied = index.stats.applied
    // An import of a long log: thousands of units in one transaction of another connection.
    worker.db
      .transaction(() => {
        for (let i = 0; i < 1200; i++)
          worker.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: sentence(6), reply_text: sentence(6) } })
      })
      .immediate()
    compare('after the import')
    expect(index.stats.loads).toBe(loads + 1)
    expect(index.stats.applied).toBe(applied)
    // A few writes later, they are applied one by one again.
    worker.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: sentence(8) } })
    compare('after one more')
    expect(index.stats.loads).toBe(loads + 1)
    expect(index.stats.applied).toBeGreaterThan(applied)
  })

  it(
    'loads in slices, leaving ranking to FTS5 meanwhile, and ranks as FTS5 with what was written between slices',
    { timeout: 120_000 },
    async () => {
      const { store, worker, sentence, episode, compare } = setup()
      // Two pages of lengths: two slices at least.
      store.db.transaction(() => Array.from({ length: 4500 }, () => episode(store, sentence(6)))).immediate()
      const index = wordIndexOf(store)
      const loading = index.loadInSlices(0) // a page a slice
      expect(index.rank(['painting'], 5)).toBeNull()
      await new Promise((resolve) => setImmediate(resolve))
      // After the first page: a unit it read deleted and one rewritten, one of the next page rewritten, one added.
      worker.deleteUnit(1)
      worker.editPayload(2, { user_text: 'painting painting by the lake' }, 'edit')
      worker.editPayload(4400, { user_text: 'hiking hiking at sunrise' }, 'edit')
      episode(worker, 'camping campfire café')
      expect(index.rank(['painting'], 5)).toBeNull()
      await loading
      compare('after a load in slices')
      expect(index.stats.loads).toBe(1)
    },
  )

  it(
    'counts a common word’s units as they come, without the vocabulary counting them again, and ranks as FTS5',
    { timeout: 120_000 },
    async () => {
      const { store, worker, episode } = setup()
      // 'lake' in 1,688 units of 4,500: more than a word keeps whole, few enough that its IDF is
      // not clamped, so a unit miscounted changes every score; two pages of lengths (two slices).
      const ids = store.db
        .transaction(() =>
          Array.from({ length: 4_500 }, (_, i) => episode(store, i % 8 < 3 ? `the lake ${i}` : `a garden ${i}`)),
        )
        .immediate()
      const index = wordIndexOf(store)
      const same = (word: string, at: string) => {
        const got = index.rank([word], 100)!.get(word)!
        const want = fromFts(store, word, 100)
        expect(
          got.map((r) => r.id),
          at,
        ).toEqual(want.map((r) => r.id))
        got.forEach((r, i) => expect(r.s, `${at} #${i}`).toBeCloseTo(want[i]!.s, 12))
      }
      // Loaded by the first ranking; 'lake' read only after units came from the other connection.
      same('painting', 'first')
      for (let i = 0; i < 5; i++) episode(worker, `a lake at dusk ${i}`)
      same('lake', 'after new units')
      expect(index.stats.vocabularyCounts).toBe(0)
      same('garden', 'another common word')
      expect(index.stats.vocabularyCounts).toBe(0)
      // A deleted unit's words are not known: from then on the vocabulary counts.
      worker.deleteUnit(ids[0]!)
      index.rank(['painting'], 100)
      const reads = index.stats.vocabularyCounts
      episode(worker, 'the lake, the garden')
      store.db.prepare("INSERT INTO units_words (units_words) VALUES ('optimize')").run()
      same('lake', 'after a delete')
      expect(index.stats.vocabularyCounts).toBeGreaterThan(reads)
      // A load in slices that no write overlapped counts again; one that a write overlapped does not.
      await index.loadInSlices(0)
      same('garden', 'after a quiet load in slices')
      expect(index.stats.vocabularyCounts).toBe(reads + 1)
      const loading = index.loadInSlices(0)
      await new Promise((resolve) => setImmediate(resolve))
      episode(worker, 'a lake between pages')
      await loading
      same('lake', 'after a load in slices a write overlapped')
      expect(index.stats.vocabularyCounts).toBe(reads + 2)
    },
  )

  it('reads a phrase word and words inside a transaction from FTS5, and keeps nothing a rollback undid', () => {
    const { store, episode, compare } = setup()
    for (let i = 0; i < 12; i++) episode(store, `painting by the lake, day ${i}`)
    const query = "Caroline don't paint by the lake"
    const before = wordSearch(store, query).ranked
    compare('before')
    expect(() =>
      store.db
        .transaction(() => {
          episode(store, 'painting painting painting at the lake with Caroline')
          // Inside the transaction FTS5 answers, and it sees the write.
          expect(wordIndexOf(store).rank(['paint'], 5)).toBeNull()
          expect(wordSearch(store, query).ranked).not.toEqual(before)
          throw new Error('roll back')
        })
        .immediate(),
    ).toThrow('roll back')
    expect(wordSearch(store, query).ranked).toEqual(before)
    compare('after the rollback')
    // The whole ranking, feedback words included, is the one FTS5 alone gives.
    const byFts = store.db.transaction(() => wordSearch(store, query).ranked).deferred()
    expect(wordSearch(store, query).ranked).toEqual(byFts)
  })
})
