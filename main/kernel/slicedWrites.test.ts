import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../db/open'
import { useTempHome } from '../../tests/support/tempHome'
import { writeInSlices } from './slicedWrites'

const home = useTempHome()

function open() {
  const { db } = openDatabase(join(home(), 'sliced.db'), { migrations: [], label: 'sliced.db', walBound: 16_000 })
  db.exec('CREATE TABLE t (x INTEGER)')
  return db
}
const bound = (db: ReturnType<typeof open>) => db.pragma('wal_autocheckpoint', { simple: true })

describe('writeInSlices', () => {
  it('writes every row in several transactions, the event loop answering between them', async () => {
    const db = open()
    const insert = db.prepare('INSERT INTO t VALUES (?)')
    const between: number[] = []
    await writeInSlices(db, 500, (i) => insert.run(i), {
      sliceMs: 0, // the smallest slices (8 rows): the test does not depend on the machine's speed
      onSlice: (written) => setImmediate(() => between.push(written)),
    })
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(500)
    expect(between.length).toBeGreaterThan(10)
    expect(between.at(-1)).toBe(500)
  })

  it('checkpoints in small steps while it writes, and puts the connection’s bound back after, side by side or failing', async () => {
    const db = open()
    const insert = db.prepare('INSERT INTO t VALUES (?)')
    const seen: unknown[] = []
    const first = writeInSlices(db, 100, (i) => insert.run(i), { sliceMs: 0, onSlice: () => seen.push(bound(db)) })
    const failing = writeInSlices(
      db,
      100,
      (i) => {
        if (i === 50) throw new Error('disk full')
        insert.run(i)
      },
      { sliceMs: 0 },
    )
    await expect(failing).rejects.toThrow('disk full')
    expect(bound(db)).toBe(1000) // the first still writes
    await first
    expect(new Set(seen)).toEqual(new Set([1000]))
    expect(bound(db)).toBe(16_000)
  })
})
