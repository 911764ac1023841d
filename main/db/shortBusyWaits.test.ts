import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { openDatabase, type Db } from './open'
import { isBusy, waitForWritesInShortSteps, withoutWaiting } from './shortBusyWaits'

const home = useTempHome()

/**
 * Another thread that takes the write lock, holds it `holdMs` (or until `release()`), and says
 * when it has it and when it let go.
 */
function holdLock(
  file: string,
  holdMs: number,
): { taken: Promise<void>; released: Promise<void>; release: () => void } {
  const signal = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
     const db = new (require('better-sqlite3'))(workerData.file)
     db.exec('BEGIN IMMEDIATE')
     db.exec('INSERT INTO t VALUES (-1)')
     parentPort.postMessage('taken')
     Atomics.wait(workerData.signal, 0, 0, workerData.holdMs)
     db.exec('COMMIT')
     db.close()
     parentPort.postMessage('released')`,
    { eval: true, workerData: { file, holdMs, signal } },
  )
  const said = (what: string) =>
    new Promise<void>((resolve, reject) => {
      worker.on('message', (m) => m === what && resolve())
      worker.once('error', reject)
    })
  const release = () => {
    Atomics.store(signal, 0, 1)
    Atomics.notify(signal, 0)
  }
  return { taken: said('taken'), released: said('released'), release }
}

describe('immediate transactions that wait for the write lock in short steps', () => {
  function open(name: string, busyTimeoutMs?: number): Db {
    if (busyTimeoutMs === undefined) {
      const db = openDatabase(join(home(), name), { migrations: [], label: name, shortBusyWaits: true }).db
      db.exec('CREATE TABLE IF NOT EXISTS t (x INTEGER)')
      return db
    }
    // A busy timeout of its own, set before the waits read it.
    const db = openDatabase(join(home(), name), { migrations: [], label: name }).db
    db.exec('CREATE TABLE IF NOT EXISTS t (x INTEGER)')
    db.pragma(`busy_timeout = ${busyTimeoutMs}`)
    waitForWritesInShortSteps(db)
    return db
  }
  const rows = (db: Db) => db.prepare('SELECT x FROM t ORDER BY rowid').pluck().all()

  it('commits what they write and answer what the function returns', () => {
    const db = open('commit.db')
    const add = db.transaction((x: number) => db.prepare('INSERT INTO t VALUES (?)').run(x).changes)
    expect(add.immediate(1)).toBe(1)
    expect(db.inTransaction).toBe(false)
    expect(rows(db)).toEqual([1])
  })

  it('roll everything back when the function throws, nested transactions included', () => {
    const db = open('rollback.db')
    const insert = db.prepare('INSERT INTO t VALUES (?)')
    const inner = db.transaction(() => insert.run(2))
    const outer = db.transaction(() => {
      insert.run(1)
      inner.immediate()
      throw new Error('no')
    })
    expect(() => outer.immediate()).toThrow('no')
    expect(db.inTransaction).toBe(false)
    expect(rows(db)).toEqual([])
    // A nested one that fails alone leaves the outer one's rows.
    const failing = db.transaction(() => {
      insert.run(3)
      throw new Error('inner')
    })
    db.transaction(() => {
      insert.run(4)
      expect(() => failing.immediate()).toThrow('inner')
    }).immediate()
    expect(rows(db)).toEqual([4])
  })

  it('refuse a function that returns a promise, writing nothing', () => {
    const db = open('promise.db')
    const early = db.transaction(async () => db.prepare('INSERT INTO t VALUES (1)').run())
    expect(() => early.immediate()).toThrow('cannot return a promise')
    expect(db.inTransaction).toBe(false)
    expect(rows(db)).toEqual([])
  })

  it('wait while another thread holds the lock, then write after its rows', async () => {
    const file = join(home(), 'held.db')
    const db = open('held.db')
    const lock = holdLock(file, 300)
    await lock.taken
    db.transaction(() => db.prepare('INSERT INTO t VALUES (1)').run()).immediate()
    await lock.released
    expect(rows(db)).toEqual([-1, 1])
  })

  it("give up with SQLITE_BUSY after the connection's busy timeout, changing nothing", async () => {
    const file = join(home(), 'timeout.db')
    const db = open('timeout.db', 50)
    const lock = holdLock(file, 2000)
    await lock.taken
    expect(() => db.transaction(() => db.prepare('INSERT INTO t VALUES (1)').run()).immediate()).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY' }),
    )
    expect(db.inTransaction).toBe(false)
    expect(db.pragma('busy_timeout', { simple: true })).toBe(50)
    await lock.released
    expect(rows(db)).toEqual([-1])
  })

  it('try the lock once inside withoutWaiting: held elsewhere, they refuse at once and change nothing, and wait again after', async () => {
    const file = join(home(), 'once.db')
    const db = open('once.db')
    const lock = holdLock(file, 60_000)
    await lock.taken
    let thrown: unknown = null
    try {
      withoutWaiting(db, () => db.transaction(() => db.prepare('INSERT INTO t VALUES (1)').run()).immediate())
    } catch (e) {
      thrown = e
    }
    // Refused while the holder holds on: with the connection's 5 s wait it would have thrown only then.
    expect(isBusy(thrown)).toBe(true)
    expect(db.inTransaction).toBe(false)
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
    lock.release()
    await lock.released
    // Outside it, the same write waits for the lock as before, and writes once it is let go.
    const again = holdLock(file, 300)
    await again.taken
    db.transaction(() => db.prepare('INSERT INTO t VALUES (2)').run()).immediate()
    await again.released
    expect(rows(db)).toEqual([-1, -1, 2])
  })
})
