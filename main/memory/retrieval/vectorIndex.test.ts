import { describe, expect, it } from 'vitest'
import { useMemoryFiles } from '../../../tests/support/memoryFiles'
import { EMBEDDING_DIMENSIONS, embedLocal, vectorBlob } from '../store/embedder'
import { Sensitivity, UnitKind, UnitState } from '../store/enums'
import { nearest } from './retrieval'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from '../store/store'
import { Partition, vectorIndexOf } from './vectorIndex'

const memory = useMemoryFiles()
const fileOf = (store: MemoryStore) => store.db.name

const words =
  'tea coffee kyoto osaka hiking painting guitar piano garden cat dog sister brother work deadline doctor train river mountain beach summer winter birthday concert museum recipe ramen soccer yoga exam friend festival camera letter movie chess bakery shrine castle forest lake harbor'.split(
    ' ',
  )
function corpus(seed = 7) {
  let s = seed
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const pick = () => words[Math.floor(rand() * words.length)]!
  return { rand, sentence: (n: number) => Array.from({ length: n }, pick).join(' ') }
}

/** What sqlite-vec itself answers: the reference the index must match. */
function exact(store: MemoryStore, vector: Float32Array, kind: number, k: number, allowSecret: boolean) {
  return store
    .prepare(
      'SELECT unit_id AS id, distance FROM vec_units WHERE embedding MATCH ? AND k = ? AND kind = ? AND state != 3 AND sensitivity < ?',
    )
    .all(vectorBlob(vector), k, kind, allowSecret ? 3 : 2) as Array<{ id: number; distance: number }>
}

function expectSame(got: Array<{ id: number; distance: number }>, want: Array<{ id: number; distance: number }>) {
  expect(got.length).toBe(want.length)
  got.forEach((g, i) => expect(g.distance).toBeCloseTo(want[i]!.distance, 4))
  // Same units, except where two distances tie to within the quantisation error.
  const gotIds = new Set(got.map((g) => Number(g.id)))
  const kth = want.at(-1)?.distance ?? 0
  for (const w of want) if (w.distance < kth - 1e-4) expect(gotIds.has(Number(w.id))).toBe(true)
}

/** A partition of `n` units, ids 1…n, each a sentence of the corpus; and their vectors by id. */
function filledPartition(part: Partition, n: number, seed: number): Map<number, Float32Array> {
  const vectors = new Map<number, Float32Array>()
  const { sentence } = corpus(seed)
  for (let id = 1; id <= n; id++) {
    const v = embedLocal(sentence(6))
    vectors.set(id, v)
    part.put(id, 0, 0, v)
  }
  return vectors
}

/** A query as Partition.nearest takes it: its non-zero dimensions and their values. */
function sparse(query: Float32Array): { dims: number[]; vals: number[] } {
  const dims: number[] = []
  const vals: number[] = []
  query.forEach((x, i) => {
    if (x !== 0) {
      dims.push(i)
      vals.push(x)
    }
  })
  return { dims, vals }
}

/** The k nearest of `vectors` to `query` by exact cosine distance (all unit vectors). */
function bruteForce(vectors: ReadonlyMap<number, Float32Array>, query: Float32Array, k: number) {
  return [...vectors]
    .map(([id, v]) => ({ id, distance: 1 - v.reduce((s, x, i) => s + x * query[i]!, 0) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, k)
}

describe('vector index', () => {
  it('answers what sqlite-vec answers, per kind, with archived and SECRET units filtered', () => {
    const store = memory()
    const { rand, sentence } = corpus()
    store.db
      .transaction(() => {
        for (let i = 0; i < 600; i++) {
          const kind = i % 3 === 0 ? UnitKind.FACT : UnitKind.EPISODE
          const payload =
            kind === UnitKind.FACT
              ? { predicate: 'likes', object_text: sentence(3), evidence_unit_ids_json: '[]' }
              : { user_text: sentence(10), reply_text: sentence(6) }
          store.createUnit({
            kind,
            payload,
            state: rand() < 0.1 ? UnitState.ARCHIVED : UnitState.RAW,
            sensitivity: rand() < 0.1 ? Sensitivity.SECRET : Sensitivity.NORMAL,
          })
        }
      })
      .immediate()
    const index = vectorIndexOf(store)
    index.sync()
    expect(index.size).toBe(600)
    for (let q = 0; q < 30; q++) {
      const vector = embedLocal(`what about ${sentence(2)} and ${sentence(1)}?`)
      for (const kind of [UnitKind.EPISODE, UnitKind.FACT])
        for (const allowSecret of [false, true]) {
          const k = q % 2 ? 10 : 40
          expectSame(nearest(store, vector, kind, k, allowSecret), exact(store, vector, kind, k, allowSecret))
        }
    }
  })

  it('returns the exact best unit first, and never a unit of another kind', () => {
    const store = memory()
    const { sentence } = corpus(11)
    for (let i = 0; i < 300; i++)
      store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `${sentence(8)} ${i}` } })
    const target = store.createUnit({
      kind: UnitKind.EPISODE,
      payload: { user_text: 'The zeppelin flight over the Alps was breathtaking' },
    })
    store.createUnit({
      kind: UnitKind.SUMMARY,
      payload: {
        scope_type: 1,
        scope_key: 'day:1',
        summary_text: 'The zeppelin flight over the Alps was breathtaking',
      },
    })
    const vector = embedLocal(store.text(store.requireUnit(target)))
    const hits = nearest(store, vector, UnitKind.EPISODE, 5, false)
    expect(hits[0]).toMatchObject({ id: target })
    expect(hits[0]!.distance).toBeLessThan(1e-4)
    expect(hits[0]!.id).toBe(exact(store, vector, UnitKind.EPISODE, 1, false)[0]!.id)
    expect(hits.every((h) => store.requireUnit(h.id).kind === UnitKind.EPISODE)).toBe(true)
  })

  it('follows creates, edits, archiving and deletes, including those made through another connection', () => {
    const store = memory()
    const other = memory(fileOf(store))
    const find = (s: MemoryStore, text: string) => nearest(s, embedLocal(text), UnitKind.EPISODE, 3, false)
    const a = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'We sailed to the lighthouse' } })
    expect(find(store, 'lighthouse sailing')[0]?.id).toBe(a)
    // Another connection (the memory worker's) adds and edits: seen on the next search.
    const b = other.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'A marathon in Berlin' } })
    expect(find(store, 'Berlin marathon')[0]?.id).toBe(b)
    other.editPayload(b, { user_text: 'A violin recital in Vienna' }, 'edit')
    expect(find(store, 'Vienna violin recital')[0]?.id).toBe(b)
    // The old text no longer reaches it (with two units, k = 3 still lists both: compare distances).
    const far = find(store, 'Berlin marathon').find((h) => h.id === b)!.distance
    expect(far).toBeGreaterThan(0.5)
    expect(far).toBeCloseTo(
      exact(store, embedLocal('Berlin marathon'), UnitKind.EPISODE, 3, false).find((h) => h.id === b)!.distance,
      4,
    )
    other.editMeta(a, { state: UnitState.ARCHIVED }, 'archived')
    expect(find(store, 'lighthouse sailing').map((h) => h.id)).not.toContain(a)
    other.editMeta(a, { state: UnitState.RAW, sensitivity: Sensitivity.SECRET }, 'secret')
    expect(find(store, 'lighthouse sailing').map((h) => h.id)).not.toContain(a)
    expect(nearest(store, embedLocal('lighthouse sailing'), UnitKind.EPISODE, 3, true)[0]?.id).toBe(a)
    store.deleteUnit(b)
    expect(find(store, 'Vienna violin recital').map((h) => h.id)).not.toContain(b)
    expect(vectorIndexOf(store).size).toBe(1)
    expect(vectorIndexOf(store).stats.rebuilds).toBe(1)
  })

  it('reloads everything when the change log it needs was pruned', () => {
    const store = memory()
    const index = vectorIndexOf(store)
    const a = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'Snow on the temple roof' } })
    index.sync()
    const b = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'Fireflies by the river' } })
    store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'A kite over the dunes' } })
    // As store.ts prunes: the oldest rows go, here including b's.
    store.prepare('DELETE FROM vec_changes WHERE seq <= (SELECT max(seq) - 1 FROM vec_changes)').run()
    index.sync()
    expect(index.stats.rebuilds).toBe(2)
    expect(index.size).toBe(3)
    expect(nearest(store, embedLocal('fireflies river'), UnitKind.EPISODE, 1, false)[0]?.id).toBe(b)
    expect(nearest(store, embedLocal('temple snow'), UnitKind.EPISODE, 1, false)[0]?.id).toBe(a)
  })

  it('builds the same pack inside a transaction, where sqlite-vec answers instead of the index', () => {
    const store = memory()
    const { sentence } = corpus(3)
    for (let i = 0; i < 200; i++)
      store.createUnit({ kind: UnitKind.EPISODE, occurred_at: 1_700_000_000 + i, payload: { user_text: sentence(9) } })
    const request = { query: 'tell me about the castle and the ramen', budget: 600, path: null, now: 1_700_100_000 }
    const outside = buildPack(store, request)
    const searches = vectorIndexOf(store).stats.searches
    const inside = store.db.transaction(() => buildPack(store, request)).immediate()
    expect(vectorIndexOf(store).stats.searches).toBe(searches)
    expect(inside.sections.flatMap((s) => s.items.map((i) => i.unit_id))).toEqual(
      outside.sections.flatMap((s) => s.items.map((i) => i.unit_id)),
    )
  })

  it('answers exactly through growth, removals and rewrites', () => {
    const part = new Partition()
    const vectors = filledPartition(part, 700, 5)
    for (let id = 1; id <= 700; id += 3) {
      part.remove(id)
      vectors.delete(id)
    }
    // Re-put an existing row with a new vector; a zero vector is never returned.
    const moved = embedLocal('entirely different words here')
    part.put(2, 0, 0, moved)
    vectors.set(2, moved)
    part.put(5, 0, 0, new Float32Array(EMBEDDING_DIMENSIONS))
    vectors.delete(5)
    expect(part.size).toBe(700 - 234)
    const query = embedLocal('entirely different words')
    const { dims, vals } = sparse(query)
    const got = part.nearest(dims, vals, 1, 20, { excludeState: 3, sensitivityBelow: 2 })
    expect(got[0]!.id).toBe(2)
    expectSame(got, bruteForce(vectors, query, 20))
  })
  it('answers exactly over rows searched in several blocks, with filters, from a start inside a block', () => {
    // 5,000 rows, of which the newest 4,500 are read: three blocks of 2,048, the first cut short.
    const part = new Partition(4_500)
    const { sentence } = corpus(13)
    const vectors = new Map<number, Float32Array>()
    for (let id = 1; id <= 5_000; id++) {
      const v = embedLocal(sentence(6))
      // Every seventh archived (state 3), every eleventh secret (sensitivity 2): both filtered out.
      const state = id % 7 === 0 ? 3 : 0
      const sensitivity = id % 11 === 0 ? 2 : 0
      part.put(id, state, sensitivity, v)
      if (id > 500 && state === 0 && sensitivity === 0) vectors.set(id, v)
    }
    for (const words of ['garden concert winter', 'tea with my sister', 'a train to the mountain lake']) {
      const query = embedLocal(words)
      const { dims, vals } = sparse(query)
      expectSame(
        part.nearest(dims, vals, 1, 40, { excludeState: 3, sensitivityBelow: 2 }),
        bruteForce(vectors, query, 40),
      )
    }
  })
})

describe('a partition larger than a search reads', () => {
  it('searches only its newest rows, exactly; one within the bound is read whole', () => {
    const part = new Partition(100)
    const vectors = filledPartition(part, 300, 7)
    const filter = { excludeState: 3, sensitivityBelow: 2 }
    // The oldest unit's own vector finds it no more: it is past the rows read.
    const { dims, vals } = sparse(vectors.get(1)!)
    expect(part.nearest(dims, vals, 1, 10, filter).map((h) => h.id)).not.toContain(1)
    // Among the rows read, the answer is the exact one.
    const query = embedLocal('garden concert winter')
    const q = sparse(query)
    const newest = new Map([...vectors].filter(([id]) => id > 200))
    expectSame(part.nearest(q.dims, q.vals, 1, 15, filter), bruteForce(newest, query, 15))
    // A partition within the bound is read whole: the oldest unit is its own nearest.
    const whole = new Partition()
    for (const [id, v] of vectors) whole.put(id, 0, 0, v)
    expect(whole.nearest(dims, vals, 1, 1, filter)[0]!.id).toBe(1)
  })

  it('keeps no more than a quarter past the rows a search reads, and takes no older unit back', () => {
    const part = new Partition(100)
    const vectors = filledPartition(part, 1_000, 9)
    expect(part.size).toBeLessThanOrEqual(125)
    // A change to a unit long dropped (its state, its text) does not bring it back as the newest.
    expect(part.put(1, 0, 0, vectors.get(1)!)).toBe(false)
    expect(part.put(500, 0, 0, vectors.get(500)!)).toBe(false)
    expect(part.size).toBeLessThanOrEqual(125)
    // A new unit is taken.
    expect(part.put(1_001, 0, 0, embedLocal('a brand new day'))).toBe(true)
  })

  it('still finds its newest unit after older ones are removed', () => {
    const part = new Partition(100)
    const vectors = filledPartition(part, 120, 11)
    const filter = { excludeState: 3, sensitivityBelow: 2 }
    // Units older than the rows a search reads: a removal that moved the newest row into their
    // place hid it from every search.
    for (let id = 1; id <= 10; id++) part.remove(id)
    const { dims, vals } = sparse(vectors.get(120)!)
    expect(part.nearest(dims, vals, 1, 1, filter)[0]!.id).toBe(120)
    const query = embedLocal('garden concert winter')
    const q = sparse(query)
    const read = new Map([...vectors].filter(([id]) => id > 20))
    expectSame(part.nearest(q.dims, q.vals, 1, 15, filter), bruteForce(read, query, 15))
  })
})

describe('the vector index loaded in slices', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve))

  it('leaves searches to sqlite-vec while it loads, then answers as sqlite-vec with what was written meanwhile', async () => {
    const store = memory()
    const worker = memory(fileOf(store)) // the memory worker's connection writes while the main thread loads
    const { sentence } = corpus(5)
    // Three chunks of sqlite-vec's (1,024 rows each): three pages, three slices at least.
    store.db
      .transaction(() => {
        for (let i = 0; i < 3000; i++)
          store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `${sentence(8)} ${i}` } })
      })
      .immediate()
    const question = 'the zeppelin over the Alps'
    const vector = embedLocal(question)
    const index = vectorIndexOf(store)
    const loading = index.loadInSlices(0) // a page a slice
    expect(index.ready).toBe(false)
    index.sync() // a pack meanwhile: no load at once
    expect(index.ready).toBe(false)
    const searches = index.stats.searches
    expectSame(nearest(store, vector, UnitKind.EPISODE, 10, false), exact(store, vector, UnitKind.EPISODE, 10, false))
    expect(index.stats.searches).toBe(searches)

    // After the first slice: a unit it read deleted, another rewritten, and a new one on the question.
    await tick()
    worker.deleteUnit(1)
    worker.editPayload(2, { user_text: 'A zeppelin flight over the Alps' }, 'edit')
    const near = worker.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'The zeppelin over the Alps' } })
    expect(index.ready).toBe(false)

    await loading
    expect(index.ready).toBe(true)
    expect(index.size).toBe(3000)
    const found = nearest(store, vector, UnitKind.EPISODE, 20, false)
    expect(index.stats.searches).toBe(searches + 1)
    expectSame(found, exact(store, vector, UnitKind.EPISODE, 20, false))
    expect(found.slice(0, 2).map((h) => h.id)).toEqual([near, 2])
    expect(nearest(store, vector, UnitKind.EPISODE, 3000, false).map((h) => h.id)).not.toContain(1)
  })
})
