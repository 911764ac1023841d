import { describe, expect, it } from 'vitest'
import { openMemory } from './db'
import { UnitKind, UnitState } from './enums'
import { choosePack } from '../pack/packBuilder'
import type { MemoryStore } from './store'
import { logHeadsOf } from './logHeads'
import { embedLocal } from './embedder'
import { nearest } from '../retrieval/retrieval'
import { vectorIndexOf } from '../retrieval/vectorIndex'
import { useTwoOpenings } from '../../../tests/support/twoConnections'

// The kept indexes (rows and texts, word postings, vectors) skip their change log when one read
// of every log's newest seq says nothing was written, once per pack. Whatever either connection
// writes between two packs, or while a pack runs, must show in the next pack.

const twoOpenings = useTwoOpenings('memory_test.db', openMemory, (s) => s.db.close())

const episode = (s: MemoryStore, user: string, reply = '') =>
  s.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: user, reply_text: reply } })
const pack = (s: MemoryStore, query: string) => choosePack(s, { query, budget: 2000, path: null }).text

function setup() {
  const [store, worker] = twoOpenings()
  for (let i = 0; i < 30; i++) episode(store, `turn ${i} about the weather`, `it rained ${i} times`)
  // The indexes are built and caught up: the next packs skip every log.
  pack(store, 'the weather')
  pack(store, 'the weather')
  return { store, worker }
}

describe('packs that skip the change logs when their heads have not moved', () => {
  it("find a turn another connection wrote after the last pack, by a word and by its vector's neighbours", () => {
    const { store, worker } = setup()
    expect(pack(store, 'the kayak')).not.toContain('kayak')
    episode(worker, 'I bought a red kayak yesterday')
    expect(pack(store, 'the kayak')).toContain('I bought a red kayak yesterday')
    // The kept vectors have it too.
    const id = episode(worker, 'zorbing down the hill')
    vectorIndexOf(store).sync()
    const near = nearest(store, embedLocal('zorbing down the hill'), UnitKind.EPISODE, 3, false)
    expect(near[0]?.id).toBe(id)
  })

  it('leave out a turn another connection archived, and show one it rewrote as it now reads', () => {
    const { store, worker } = setup()
    const id = episode(store, 'the lighthouse keeper waved')
    expect(pack(store, 'lighthouse')).toContain('lighthouse keeper waved')
    worker.editPayload(id, { user_text: 'the lighthouse keeper sang' }, 'test')
    const rewritten = pack(store, 'lighthouse')
    expect(rewritten).toContain('lighthouse keeper sang')
    expect(rewritten).not.toContain('waved')
    worker.editMeta(id, { state: UnitState.ARCHIVED }, 'test')
    expect(pack(store, 'lighthouse')).not.toContain('lighthouse keeper')
  })

  it("find what this connection wrote between packs, with no other connection's commit", () => {
    const { store } = setup()
    // A word the packs asked before: its postings are kept, and must take the turn in.
    episode(store, 'what weather, hailstones like marbles')
    expect(pack(store, 'the weather')).toContain('hailstones like marbles')
  })

  it('read the heads once for a pack: a write committed while it runs is in the next pack', () => {
    const { store, worker } = setup()
    const heads = logHeadsOf(store.db)
    const before = heads.head('unit_changes')
    heads.during(() => {
      episode(worker, 'the telescope arrived today')
      // Still the heads read at the start of the pack.
      expect(heads.head('unit_changes')).toBe(before)
      pack(store, 'weather')
    })
    expect(heads.head('unit_changes')).toBeGreaterThan(before)
    expect(pack(store, 'telescope')).toContain('the telescope arrived today')
  })
})
