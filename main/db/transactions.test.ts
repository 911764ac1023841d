import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { openDatabase } from './open'

const home = useTempHome()

// Why every write transaction is `.immediate()` (a lint rule holds the code to it): the main
// thread and a worker thread each have a connection to the same WAL file.
describe('write transactions across connections', () => {
  function twoConnections() {
    const file = join(home(), 'shared.db')
    const a = openDatabase(file, { migrations: [], label: 'shared.db' }).db
    const b = openDatabase(file, { migrations: [], label: 'shared.db' }).db
    a.exec('CREATE TABLE t (x INTEGER)')
    b.pragma('busy_timeout = 0')
    return { a, b, count: () => a.prepare('SELECT count(*) FROM t').pluck().get() as number }
  }

  it('a deferred read-then-write fails when the other connection commits in between', () => {
    const { a, b, count } = twoConnections()
    expect(() =>
      a
        .transaction(() => {
          count()
          b.prepare('INSERT INTO t VALUES (1)').run()
          a.prepare('INSERT INTO t VALUES (2)').run()
        })
        .deferred(),
    ).toThrow(/database is locked|SQLITE_BUSY/)
    expect(count()).toBe(1) // only the other connection's row: this transaction's work is lost
    a.close()
    b.close()
  })

  it('an immediate one holds the write lock from BEGIN: the other waits its turn, nothing fails mid-way', () => {
    const { a, b, count } = twoConnections()
    a.transaction(() => {
      count()
      expect(() => b.prepare('INSERT INTO t VALUES (1)').run()).toThrow(/database is locked|SQLITE_BUSY/)
      a.prepare('INSERT INTO t VALUES (2)').run()
    }).immediate()
    b.prepare('INSERT INTO t VALUES (1)').run()
    expect(count()).toBe(2)
    a.close()
    b.close()
  })
})
