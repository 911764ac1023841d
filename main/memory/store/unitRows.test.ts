import { describe, expect, it } from 'vitest'
import { openMemory } from './db'
import { UnitKind, UnitState } from './enums'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from './store'
import { unitsByIds } from '../retrieval/hits'
import { KEPT_SHARE_BYTES, unitRowsOf } from './unitRows'
import { itemLine } from './itemText'
import { seededRandom } from '../../../tests/support/seededRandom'
import { useTwoOpenings } from '../../../tests/support/twoConnections'
import { nextWrite } from '../../../tests/support/randomWrites'

// The unit rows a pack reads are kept between packs. A pack must never weigh a unit as it was:
// every write — the app's, the memory worker's from its own connection, undone ones — shows in
// the next pack.

const twoOpenings = useTwoOpenings('memory_test.db', openMemory, (s) => s.db.close())

/** One memory opened twice: `store` for the app, `worker` as the memory worker's connection. */
function setup() {
  const [store, worker] = twoOpenings()
  const episode = (s: MemoryStore, text: string) =>
    s.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: text, reply_text: '' } })
  /** Every unit's row and searchable text as the database holds them now, by id. */
  const fresh = () => {
    const texts = store.db.prepare('SELECT rowid AS id, text FROM units_fts ORDER BY rowid').all() as Array<{
      id: number
      text: string
    }>
    return {
      rows: store.db.prepare('SELECT * FROM units ORDER BY id').all(),
      texts,
      lines: texts.map(({ id, text }) => ({ id, line: itemLine(text) })),
    }
  }
  /** The same, as the packs' kept rows and texts give them. */
  const kept = () => {
    const ids = (store.db.prepare('SELECT id FROM units').pluck().all() as number[]).concat([999_999])
    const texts = unitRowsOf(store).textsOf(ids)
    const lines = unitRowsOf(store).linesOf(unitsByIds(store, ids))
    return {
      rows: unitsByIds(store, ids).sort((a, b) => a.id - b.id),
      texts: [...texts].sort((a, b) => a[0] - b[0]).map(([id, text]) => ({ id, text })),
      lines: [...lines].sort((a, b) => a[0] - b[0]).map(([id, line]) => ({ id, line })),
    }
  }
  return { store, worker, episode, fresh, kept }
}

describe('the unit rows, texts and pack lines kept between packs', () => {
  it('equal the rows, texts and pack lines in the database after every write from either connection (200 random writes)', () => {
    const { store, worker, episode, fresh, kept } = setup()
    const next = seededRandom(20261127)
    for (let i = 0; i < 200; i++) {
      const { by, id, roll: r } = nextWrite(next, [store, worker])
      if (i < 20 || r < 0.3 || id === undefined) episode(by, `turn ${i} about the lake`)
      else if (r < 0.5) by.editMeta(id, { state: next() < 0.5 ? UnitState.ARCHIVED : UnitState.VALIDATED }, 'test')
      else if (r < 0.65) by.editMeta(id, { pin: next() < 0.5, salience: Math.round(next() * 10) / 10 }, 'test')
      else if (r < 0.8) by.editPayload(id, { user_text: `edited ${i}` }, 'test')
      else by.deleteUnit(id)
      expect(kept(), `after write ${i}`).toEqual(fresh())
    }
  })

  it('ask the database once for an id that names no unit, and show the unit once the other connection writes it', () => {
    const { store, worker, episode } = setup()
    const first = episode(store, 'the first turn')
    const rows = unitRowsOf(store)
    expect(unitsByIds(store, [first + 1])).toEqual([])
    const read = rows.stats.rowsRead
    expect(unitsByIds(store, [first + 1])).toEqual([])
    expect(rows.stats.rowsRead).toBe(read)
    const next = episode(worker, 'the next turn')
    expect(next).toBe(first + 1)
    expect(unitsByIds(store, [next]).map((u) => u.id)).toEqual([next])
  })

  it('leave out a unit the memory worker archived, in the very next pack', () => {
    const { store, worker, episode } = setup()
    const id = episode(store, 'We buried the time capsule under the old oak')
    const packed = () =>
      buildPack(store, { query: 'Where is the time capsule?', budget: 500, path: null }).sections.flatMap((s) =>
        s.items.map((i) => i.unit_id),
      )
    expect(packed()).toContain(id)
    worker.editMeta(id, { state: UnitState.ARCHIVED }, 'archived by the user in another window')
    expect(packed()).not.toContain(id)
  })

  it('keep nothing a rolled-back write showed, and hand out rows no caller can change', () => {
    const { store, episode } = setup()
    const id = episode(store, 'a quiet evening')
    const salience = () => unitsByIds(store, [id])[0]!.salience
    const before = salience()
    expect(() =>
      store.db
        .transaction(() => {
          store.db.prepare('UPDATE units SET salience = 0.99 WHERE id = ?').run(id)
          expect(salience()).toBe(0.99)
          throw new Error('roll back')
        })
        .immediate(),
    ).toThrow('roll back')
    expect(salience()).toBe(before)
    const row = unitsByIds(store, [id])[0]!
    expect(() => {
      ;(row as { salience: number }).salience = 1
    }).toThrow()
  })

  it('stay within their byte shares however many units are read, and still answer every one', () => {
    const { store, episode } = setup()
    // 1,000 units of ~6,000 characters: kept whole, they take over 10 MB.
    const ids = store.db
      .transaction(() =>
        Array.from({ length: 1_000 }, (_, i) => episode(store, `Day ${i}: ${'we walked by the river and talked. '.repeat(170)}`)),
      )
      .immediate()
    const rows = unitRowsOf(store)
    for (let at = 0; at < ids.length; at += 100) {
      const batch = ids.slice(at, at + 100)
      const units = unitsByIds(store, batch)
      expect(units).toHaveLength(100)
      expect(rows.textsOf(batch).size).toBe(100)
      expect([...rows.linesOf(units).values()].every((line) => line !== null && line.text.includes('river'))).toBe(true)
    }
    // Rows, texts and one kind of derived value (pack lines): three shares, under 8 MB of the ~24.
    expect(rows.keptBytes).toBeLessThanOrEqual(3 * KEPT_SHARE_BYTES + 20_000)
    expect(rows.keptBytes).toBeLessThan(8 * 1024 * 1024)
    // What the last packs read is still kept.
    expect(rows.textsOf(ids.slice(-100)).get(ids.at(-1)!)).toContain('Day 999')
  }, 60_000)
})
