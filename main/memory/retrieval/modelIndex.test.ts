import { describe, expect, it } from 'vitest'
import { useMemoryFiles } from '../../../tests/support/memoryFiles'
import { UnitKind, UnitState } from '../store/enums'
import { ModelVectorIndex, modelIndexOf } from './modelIndex'
import { deleteModelVector, nearestByModel, takeDirty, writeModelVectors } from '../store/modelVectors'
import { FEATURES } from './rankFeatures'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from '../store/store'
import { tuning } from './tuning'

const memory = useMemoryFiles()

/** Vectors around a few topics, as sentence vectors are: seeded, so every run is the same. */
function vectors(dims: number, seed = 5) {
  let s = seed
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5
  const topics = Array.from({ length: 12 }, () => Array.from({ length: dims }, rand))
  return () => {
    const topic = topics[Math.floor((rand() + 0.5) * topics.length)]!
    return topic.map((x) => x + 0.8 * rand())
  }
}

function fill(store: MemoryStore, n: number, model: string, next: () => number[]): void {
  store.db
    .transaction(() => {
      for (let i = 0; i < n; i++)
        store.createUnit({ kind: UnitKind.EPISODE, state: UnitState.RAW, payload: { user_text: `turn ${i}` } })
    })
    .immediate()
  const units = takeDirty(store.db, n)
  writeModelVectors(
    store.db,
    model,
    units.map((u) => ({ ...u, vector: next() })),
  )
}

/** `n` turns embedded by the sentence model, each with `sentences` sentence vectors. */
function turnsWithSentences(store: MemoryStore, n: number, sentences: number, next: () => number[]): void {
  store.db
    .transaction(() => {
      for (let i = 0; i < n; i++) store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `turn ${i}` } })
    })
    .immediate()
  writeModelVectors(
    store.db,
    'local:sentence-en',
    takeDirty(store.db, n).map((u) => ({ ...u, vector: next(), sentences: Array.from({ length: sentences }, next) })),
  )
}

describe("the in-memory index of the embedding model's vectors", () => {
  it('answers as sqlite-vec does: the same nearest units, at the same distances', () => {
    const store = memory()
    const next = vectors(512)
    // 3000 rows, over 8 × the pool of 200: the first 128 sign bits pick the rows counted in full.
    fill(store, 3000, 'local:sentence-en', next)
    const index = modelIndexOf(store.db)
    index.sync()
    let same = 0
    for (let q = 0; q < 30; q++) {
      const query = next()
      const exact = nearestByModel(store.db, 'local:sentence-en', query, UnitKind.EPISODE, 20)
      const fast = index.search('local:sentence-en', query, UnitKind.EPISODE, 20)
      expect(fast).toHaveLength(20)
      const byId = new Map(exact.map((r) => [r.id, r.distance]))
      for (const r of fast) {
        if (!byId.has(r.id)) continue
        same++
        expect(Math.abs(r.distance - byId.get(r.id)!)).toBeLessThan(0.01)
      }
    }
    // Near-ties may swap at the edge of the top 20; nearly all must agree.
    expect(same / (30 * 20)).toBeGreaterThan(0.95)
    expect(index.search('openai:other', next(), UnitKind.EPISODE, 5)).toEqual([])
  })

  it("follows another connection's writes and deletes, and reloads when the model changes", () => {
    const store = memory()
    const worker = memory(store.db.name)
    const next = vectors(64, 9)
    fill(store, 50, 'local:sentence-en', next)
    const index = modelIndexOf(store.db)
    index.sync()
    expect(index.stats.rebuilds).toBe(1)

    // The worker embeds a new unit: the next sync finds it as its own nearest neighbour.
    const fresh = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'new' } })
    const vector = next()
    writeModelVectors(worker.db, 'local:sentence-en', [{ id: fresh, kind: UnitKind.EPISODE, gen: 0, vector }])
    index.sync()
    expect(index.search('local:sentence-en', vector, UnitKind.EPISODE, 1)[0]).toMatchObject({ id: fresh })
    expect(index.stats.rebuilds).toBe(1)

    deleteModelVector(worker.db, fresh)
    index.sync()
    expect(index.search('local:sentence-en', vector, UnitKind.EPISODE, 60).map((r) => r.id)).not.toContain(fresh)

    // Another model starts the table afresh: the old vectors are gone from the index too.
    const other = vectors(32, 3)
    writeModelVectors(worker.db, 'ollama:nomic', [{ id: 1, kind: UnitKind.EPISODE, gen: 0, vector: other() }])
    index.sync()
    expect(index.stats.rebuilds).toBe(2)
    expect(index.search('local:sentence-en', vector, UnitKind.EPISODE, 5)).toEqual([])
    expect(index.search('ollama:nomic', other(), UnitKind.EPISODE, 5).map((r) => r.id)).toEqual([1])
  })
})

describe('the index loaded in slices', () => {
  const MODEL = 'local:sentence-en'
  const tick = () => new Promise((resolve) => setImmediate(resolve))

  it('answers nothing until it is loaded, then as an index loaded at once, with what was written meanwhile', async () => {
    const store = memory()
    const worker = memory(store.db.name) // the memory worker's connection writes while the main thread loads
    const next = vectors(64, 7)
    // Three sentences a turn: 9,000 rows, read in pages after the turns' own vectors.
    turnsWithSentences(store, 3000, 3, next)
    const query = next()
    const index = new ModelVectorIndex(store.db)
    const loading = index.loadInSlices(0) // a page a slice
    expect(index.ready).toBe(false)
    index.sync() // a pack meanwhile: no load at once
    expect(index.ready).toBe(false)
    expect(index.search(MODEL, query, UnitKind.EPISODE, 10)).toEqual([])
    expect(index.searchSentences(MODEL, query, 10)).toEqual([])

    // After the first slice (the turns' vectors): one turn deleted, one added right on the query.
    await tick()
    const gone = 1 // the first turn, read in the first slice
    deleteModelVector(worker.db, gone)
    const near = worker.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'said just now' } })
    writeModelVectors(worker.db, MODEL, [
      { id: near, kind: UnitKind.EPISODE, gen: 0, vector: query, sentences: [query] },
    ])
    expect(index.ready).toBe(false)

    await loading
    expect(index.ready).toBe(true)
    const atOnce = new ModelVectorIndex(store.db)
    atOnce.sync()
    const found = index.search(MODEL, query, UnitKind.EPISODE, 20)
    expect(found).toEqual(atOnce.search(MODEL, query, UnitKind.EPISODE, 20))
    expect(found[0]).toMatchObject({ id: near })
    expect(index.searchSentences(MODEL, query, 20)).toEqual(atOnce.searchSentences(MODEL, query, 20))
    expect(index.searchSentences(MODEL, query, 1)[0]).toMatchObject({ id: near })
    const everyTurn = index.search(MODEL, query, UnitKind.EPISODE, 5000).map((r) => r.id)
    expect(everyTurn).toHaveLength(3000) // 3,000 less the deleted one, plus the new one
    expect(everyTurn).not.toContain(gone)
  })

  it('gives a MemoryPack meaning through sqlite-vec while it loads', async () => {
    const store = memory()
    const next = vectors(64, 9)
    fill(store, 300, MODEL, next)
    const query = next()
    const target = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'the turn the question means' } })
    writeModelVectors(store.db, MODEL, [{ id: target, kind: UnitKind.EPISODE, gen: 0, vector: query }])
    const loading = modelIndexOf(store.db).loadInSlices(0)
    const pack = buildPack(store, {
      query: 'unrelated words',
      budget: 2000,
      path: null,
      modelVector: { model: MODEL, vector: query },
    })
    expect(modelIndexOf(store.db).ready).toBe(false)
    const item = pack.sections.flatMap((s) => s.items).find((i) => i.unit_id === target)
    expect(item?.why).toMatch(/meaning #1 /)
    await loading
  })
})

describe("the index of episodes' sentences", () => {
  /** A unit vector far from `v`: its opposite, a little moved. */
  const opposite = (v: number[], next: () => number[]) => {
    const noise = next()
    return v.map((x, d) => -x + 0.05 * noise[d]!)
  }

  it('finds a turn by the one sentence a question matches, and follows its edit, delete and a reload', () => {
    const store = memory()
    const worker = memory(store.db.name)
    const next = vectors(64, 11)
    turnsWithSentences(store, 300, 2, next)
    const query = next()
    // The turn as a whole points away from the question; one of its sentences is the question.
    const long = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'a long turn' } })
    const sentences = [next(), query.map((x, d) => x + 0.02 * next()[d]!), next()]
    writeModelVectors(worker.db, 'local:sentence-en', [
      { id: long, kind: UnitKind.EPISODE, gen: 0, vector: opposite(query, next), sentences },
    ])
    const index = modelIndexOf(store.db)
    index.sync()
    expect(index.searchSentences('local:sentence-en', query, 5)[0]).toMatchObject({ id: long })
    expect(index.search('local:sentence-en', query, UnitKind.EPISODE, 20).map((r) => r.id)).not.toContain(long)
    // Each unit once, at its nearest sentence.
    const found = index.searchSentences('local:sentence-en', query, 50).map((r) => r.id)
    expect(new Set(found).size).toBe(found.length)
    expect(index.searchSentences('openai:other', query, 5)).toEqual([])

    // A fresh index (another window, a restart) reads the same sentences from the table.
    const fresh = modelIndexOf(worker.db)
    fresh.sync()
    expect(fresh.searchSentences('local:sentence-en', query, 5)).toEqual(
      index.searchSentences('local:sentence-en', query, 5),
    )

    // Embedded again after an edit, without that sentence: the index forgets it.
    writeModelVectors(worker.db, 'local:sentence-en', [
      { id: long, kind: UnitKind.EPISODE, gen: 0, vector: opposite(query, next), sentences: [next()] },
    ])
    index.sync()
    expect(index.searchSentences('local:sentence-en', query, 20).map((r) => r.id)).not.toContain(long)

    writeModelVectors(worker.db, 'local:sentence-en', [
      { id: long, kind: UnitKind.EPISODE, gen: 0, vector: opposite(query, next), sentences },
    ])
    index.sync()
    expect(index.searchSentences('local:sentence-en', query, 1)[0]).toMatchObject({ id: long })
    deleteModelVector(worker.db, long)
    index.sync()
    expect(index.searchSentences('local:sentence-en', query, 20).map((r) => r.id)).not.toContain(long)

    // Another model starts afresh: no sentence of the old one is left.
    writeModelVectors(worker.db, 'ollama:nomic', [{ id: 1, kind: UnitKind.EPISODE, gen: 0, vector: next() }])
    index.sync()
    expect(index.searchSentences('ollama:nomic', query, 5)).toEqual([])
  })

  it("lifts the turn whose one sentence answers the question among the best of a MemoryPack's finds", () => {
    const store = memory()
    const next = vectors(64, 13)
    const query = next()
    store.db
      .transaction(() => {
        for (let i = 0; i < 200; i++)
          store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `turn ${i}: nothing much happened` } })
      })
      .immediate()
    const long = store.createUnit({
      kind: UnitKind.EPISODE,
      payload: { user_text: 'Busy week. I am off to go swimming with the kids. Talk soon.' },
    })
    const units = takeDirty(store.db, 500)
    writeModelVectors(
      store.db,
      'local:sentence-en',
      units.map((u) =>
        u.id === long
          ? { ...u, vector: opposite(query, next), sentences: [next(), query, next()] }
          : { ...u, vector: next() },
      ),
    )
    // Its place among the finds by the fused score, which the learned ranker weighs most (the
    // pack then weighs it against the other finds' meaning matches and lengths).
    const place = (weight: number) => {
      const kept = tuning.sentenceWeight
      tuning.sentenceWeight = weight
      let at = -1
      try {
        buildPack(store, {
          query: 'What do they do for fun?',
          budget: 300,
          path: null,
          modelVector: { model: 'local:sentence-en', vector: query },
          onFeatures: (found) => {
            const fused = FEATURES.indexOf('fused_score')
            const scores = [...found.values()].map((f) => f[fused]!).sort((x, y) => y - x)
            at = found.has(long) ? scores.indexOf(found.get(long)![fused]!) : -1
          },
        })
        return at
      } finally {
        tuning.sentenceWeight = kept
      }
    }
    // About 30 finds: the meaning matches of 200 turns, and the turns beside the best of them.
    expect(place(tuning.sentenceWeight)).toBeLessThan(6)
    expect(place(0)).toBeGreaterThan(25)
  })
})
