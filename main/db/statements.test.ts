import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { openDatabase } from './open'
import { statements } from './statements'

const home = useTempHome()

describe('reused statements', () => {
  function db(file = 'statements.db') {
    const opened = openDatabase(join(home(), file), { migrations: [], label: file }).db
    opened.exec('CREATE TABLE t (x INTEGER, y TEXT)')
    opened.prepare("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')").run()
    return opened
  }

  it('hands the same SQL the same compiled statement, with the mode one caller set undone for the next', () => {
    const sql = statements(db())
    const select = 'SELECT x, y FROM t ORDER BY x'
    expect(sql(select).pluck().all()).toEqual([1, 2, 3])
    expect(sql(select)).toBe(sql(select))
    expect(sql(select).all()).toEqual([
      { x: 1, y: 'a' },
      { x: 2, y: 'b' },
      { x: 3, y: 'c' },
    ])
    expect(sql(select).raw().get()).toEqual([1, 'a'])
    expect(sql(select).get()).toEqual({ x: 1, y: 'a' })
  })

  it('gives a fresh statement while the same SQL is still iterating, so a nested reader does not fail', () => {
    const opened = db()
    const sql = statements(opened)
    const select = 'SELECT x FROM t WHERE x >= ? ORDER BY x'
    const outer = sql(select).pluck()
    const seen: number[] = []
    for (const x of outer.iterate(2) as Iterable<number>) {
      const inner = sql(select)
      expect(inner).not.toBe(outer)
      seen.push(x)
    }
    expect(seen).toEqual([2, 3])
    // Once the iteration is over, the kept one is handed out again.
    expect(sql(select)).toBe(outer)
  })

  it('keeps a bounded number of statements: SQL built per call does not grow it without end', () => {
    const sql = statements(db())
    const first = sql('SELECT 0')
    for (let i = 1; i <= 600; i++) sql(`SELECT ${i}`)
    expect(sql('SELECT 0')).not.toBe(first)
    expect(sql('SELECT 600')).toBe(sql('SELECT 600'))
  })

  it("shares one connection's statements among all who ask, as a job queue made for one enqueue does", () => {
    const opened = db()
    const select = 'SELECT x FROM t ORDER BY x'
    const kept = statements(opened)(select)
    expect(statements(opened)(select)).toBe(kept)
    // Another connection compiles its own.
    expect(statements(db('other.db'))(select)).not.toBe(kept)
  })
})
