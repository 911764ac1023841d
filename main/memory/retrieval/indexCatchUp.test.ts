import { describe, expect, it } from 'vitest'
import { useTwoOpenings } from '../../../tests/support/twoConnections'
import { openMemory } from '../store/db'
import { UnitKind } from '../store/enums'
import { catchUpIndexes, IndexCatchUp } from './indexCatchUp'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from '../store/store'
import { unitRowsOf } from '../store/unitRows'
import { vectorIndexOf } from './vectorIndex'
import { wordIndexOf } from './wordIndex'

// Between two turns the memory worker writes facts and summaries, and the exchange is stored:
// the indexes the packs keep take those writes in while the main thread is free, so the next
// pack (on the way to the reply's first token) has nothing left to apply — and still finds them.

const twoOpenings = useTwoOpenings('memory_test.db', openMemory, (s) => s.db.close())

const QUERY = 'Where did Caroline go hiking at sunrise?'

/** A memory whose pack has built its indexes, and the worker's connection to the same file. */
function packedMemory(): [MemoryStore, MemoryStore] {
  const [store, worker] = twoOpenings()
  for (let i = 0; i < 40; i++)
    store.createUnit({
      kind: UnitKind.EPISODE,
      payload: { user_text: `Day ${i}: Caroline painted by the lake.`, reply_text: 'Lovely.' },
    })
  buildPack(store, { query: QUERY, budget: 500, path: null })
  return [store, worker]
}

const workerFact = (worker: MemoryStore) =>
  worker.createUnit({
    kind: UnitKind.FACT,
    payload: {
      predicate: 'hiked',
      object_text: 'Caroline went hiking up Mount Tam at sunrise',
      evidence_unit_ids_json: '[]',
    },
  })

describe('catching the indexes up between turns', () => {
  it("takes another connection's write in, so the next pack finds it with nothing left to apply", async () => {
    const [store, worker] = packedMemory()
    const fact = workerFact(worker)
    await catchUpIndexes(store)
    const applied = wordIndexOf(store).stats.applied
    const rebuilds = vectorIndexOf(store).stats.rebuilds

    const pack = buildPack(store, { query: QUERY, budget: 500, path: null })
    expect(pack.text).toContain('Mount Tam')
    expect(pack.sections.flatMap((s) => s.items.map((i) => i.unit_id))).toContain(fact)
    expect(wordIndexOf(store).stats.applied).toBe(applied)
    expect(vectorIndexOf(store).stats.rebuilds).toBe(rebuilds)
  })

  it('reads what was written ahead, so the next pack that finds it reads no row or text and makes nothing of it', async () => {
    const [store, worker] = packedMemory()
    const fact = workerFact(worker)
    await catchUpIndexes(store)
    const before = { ...unitRowsOf(store).stats }

    const pack = buildPack(store, { query: QUERY, budget: 500, path: null })
    expect(pack.sections.flatMap((s) => s.items.map((i) => i.unit_id))).toContain(fact)
    expect(unitRowsOf(store).stats).toEqual(before)
  })

  it('without it, the pack takes the write in itself', () => {
    const [store, worker] = packedMemory()
    workerFact(worker)
    const applied = wordIndexOf(store).stats.applied
    expect(buildPack(store, { query: QUERY, budget: 500, path: null }).text).toContain('Mount Tam')
    expect(wordIndexOf(store).stats.applied).toBeGreaterThan(applied)
  })

  it('builds nothing: a memory never packed nor loaded stays unread', async () => {
    const [store, worker] = twoOpenings()
    workerFact(worker)
    await catchUpIndexes(store)
    expect(vectorIndexOf(store).built).toBe(false)
    expect(wordIndexOf(store).stats.loads).toBe(0)
  })

  it('catches up once the work under way is done', async () => {
    const [store, worker] = packedMemory()
    const catchUp = new IndexCatchUp()
    workerFact(worker)
    catchUp.soon(store)
    catchUp.soon(store)
    const applied = wordIndexOf(store).stats.applied
    await new Promise((resolve) => setImmediate(resolve))
    const caughtUp = wordIndexOf(store).stats.applied
    expect(caughtUp).toBeGreaterThan(applied)
    expect(buildPack(store, { query: QUERY, budget: 500, path: null }).text).toContain('Mount Tam')
    expect(wordIndexOf(store).stats.applied).toBe(caughtUp)
  })

  it('loads again in slices after an import, and packs ask SQLite meanwhile', { timeout: 120_000 }, async () => {
    const [store, worker] = packedMemory()
    const words = wordIndexOf(store)
    const vectors = vectorIndexOf(store)
    const { loads } = words.stats
    const { rebuilds } = vectors.stats
    // An import of a long log through another connection: more changes than applying one by one pays for.
    worker.db
      .transaction(() => {
        for (let i = 0; i < 5100; i++)
          worker.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: `Imported line ${i} about the garden.` } })
        workerFact(worker)
      })
      .immediate()
    const catching = catchUpIndexes(store)
    expect(words.rank(['hiking'], 5)).toBeNull()
    expect(vectors.ready).toBe(false)
    expect(buildPack(store, { query: QUERY, budget: 500, path: null }).text).toContain('Mount Tam')
    await catching
    expect(vectors.ready).toBe(true)
    expect(words.stats.loads).toBe(loads + 1)
    expect(vectors.stats.rebuilds).toBe(rebuilds + 1)
    expect(vectors.size).toBe(40 + 5101)
    expect(buildPack(store, { query: QUERY, budget: 500, path: null }).text).toContain('Mount Tam')
    expect(words.rank(['hiking'], 5)).not.toBeNull()
  })
})
