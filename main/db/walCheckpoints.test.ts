import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { openDatabase, type Db } from './open'
import { checkpointEvery, WAL_KEEP_BYTES } from './walCheckpoints'

const home = useTempHome()

// Pages reach the database file only when the WAL is checkpointed, so the file's size tells
// who moved them, and when.
describe('WAL checkpoints kept off the writing connection', () => {
  const PAGE = 4096

  function open(file: string, walBound?: number): Db {
    const db = openDatabase(file, { migrations: [], label: 'shared.db', walBound }).db
    db.exec('CREATE TABLE IF NOT EXISTS t (b BLOB)')
    return db
  }

  /** About `pages` pages of WAL, one small transaction each, as a session of edits writes them. */
  function write(db: Db, pages: number): void {
    const insert = db.prepare('INSERT INTO t VALUES (randomblob(3000))')
    for (let i = 0; i < pages; i++) insert.run()
  }

  const fileSize = (file: string) => statSync(file).size
  const failOnError = (_: Db, e: unknown) => {
    throw e
  }

  it("SQLite's default: the commit that finds 1,000 pages in the WAL copies them into the file itself", () => {
    const file = join(home(), 'default.db')
    const writer = open(file)
    write(writer, 1500)
    expect(fileSize(file)).toBeGreaterThan(900 * PAGE)
  })

  it("with a bound for a worker's checkpoints, the writer's commits leave the pages in the WAL", () => {
    const file = join(home(), 'bounded.db')
    const writer = open(file, 16_000)
    write(writer, 1500)
    expect(fileSize(file)).toBeLessThan(100 * PAGE)
    expect(fileSize(`${file}-wal`)).toBeGreaterThan(1400 * PAGE)
  })

  it("another connection's periodic checkpoint moves them while the writer goes on", async () => {
    const file = join(home(), 'elsewhere.db')
    const writer = open(file, 16_000)
    const worker = open(file)
    write(writer, 1500)
    expect(fileSize(file)).toBeLessThan(100 * PAGE)
    const stop = checkpointEvery(() => [worker], failOnError, 20)
    try {
      await vi.waitFor(() => expect(fileSize(file)).toBeGreaterThan(1400 * PAGE), { timeout: 10_000, interval: 20 })
      // Once moved, the writer starts the WAL over (or a new one, once cut back) instead of growing it.
      write(writer, 200)
      expect(fileSize(`${file}-wal`)).toBeLessThan(1400 * PAGE)
      expect(writer.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1700)
    } finally {
      stop()
    }
  })

  it('skips a connection closed meanwhile', async () => {
    const file = join(home(), 'closed.db')
    const writer = open(file, 16_000)
    const closed = open(file)
    const live = open(file)
    closed.close()
    write(writer, 1200)
    expect(fileSize(file)).toBeLessThan(100 * PAGE)
    const stop = checkpointEvery(() => [closed, live], failOnError, 20)
    try {
      await vi.waitFor(() => expect(fileSize(file)).toBeGreaterThan(1100 * PAGE), { timeout: 10_000, interval: 20 })
    } finally {
      stop()
    }
  })

  it('reports a checkpoint that fails and still keeps the other databases', async () => {
    const file = join(home(), 'failing.db')
    const writer = open(file, 16_000)
    // A read-only connection cannot checkpoint: SQLite answers with an I/O error.
    const readOnly = openDatabase(file, { migrations: [], label: 'shared.db', readonly: true }).db
    const live = open(file)
    write(writer, 1200)
    const failed: Db[] = []
    const stop = checkpointEvery(
      () => [readOnly, live],
      (db) => failed.push(db),
      20,
    )
    try {
      await vi.waitFor(() => expect(fileSize(file)).toBeGreaterThan(1100 * PAGE), { timeout: 10_000, interval: 20 })
      expect(failed.length).toBeGreaterThan(0)
      expect(new Set(failed)).toEqual(new Set([readOnly]))
    } finally {
      stop()
    }
  })

  it('past its bound (the worker stopped or busy in a long job) the writer checkpoints after all', () => {
    const file = join(home(), 'fallback.db')
    const writer = open(file, 300)
    write(writer, 600)
    expect(fileSize(file)).toBeGreaterThan(250 * PAGE)
  })

  it('after a burst of writes and a checkpoint the WAL file is cut back below its bound', async () => {
    const file = join(home(), 'burst.db')
    const writer = open(file, 16_000)
    const worker = open(file)
    write(writer, 3000) // ~12 MB of WAL
    expect(fileSize(`${file}-wal`)).toBeGreaterThan(2900 * PAGE)
    const stop = checkpointEvery(() => [worker], failOnError, 20)
    try {
      await vi.waitFor(() => expect(fileSize(`${file}-wal`)).toBeLessThanOrEqual(WAL_KEEP_BYTES), {
        timeout: 10_000,
        interval: 20,
      })
      expect(fileSize(file)).toBeGreaterThan(2900 * PAGE)
      write(writer, 10)
      expect(writer.prepare('SELECT count(*) FROM t').pluck().get()).toBe(3010)
    } finally {
      stop()
    }
  })

  it('a reader in the way leaves the WAL for later, and the writer is not kept waiting', async () => {
    const file = join(home(), 'reader.db')
    const writer = open(file, 16_000)
    const worker = open(file)
    const reader = open(file)
    write(writer, 1500)
    // A read transaction holding the newest snapshot: a checkpoint can move every page, not truncate.
    reader.exec('BEGIN')
    reader.prepare('SELECT count(*) FROM t').get()
    const stop = checkpointEvery(() => [worker], failOnError, 20)
    try {
      await vi.waitFor(() => expect(fileSize(file)).toBeGreaterThan(1400 * PAGE), { timeout: 10_000, interval: 20 })
      // The writer is not kept waiting behind the reader: a TRUNCATE that finds it in the way gives
      // up at once. (It holds the write lock for the instant it tries, so a writer with no busy
      // timeout at all could meet SQLITE_BUSY on a loaded machine; 200 ms is far below the
      // reader's whole transaction, which the writer would otherwise wait out.)
      writer.pragma('busy_timeout = 200')
      write(writer, 5)
      expect(fileSize(`${file}-wal`)).toBeGreaterThan(WAL_KEEP_BYTES)
      reader.exec('COMMIT')
      await vi.waitFor(() => expect(fileSize(`${file}-wal`)).toBeLessThanOrEqual(WAL_KEEP_BYTES), {
        timeout: 10_000,
        interval: 20,
      })
    } finally {
      stop()
    }
  })

  it('a writer that starts the WAL over cuts it back to journal_size_limit', () => {
    const file = join(home(), 'restart.db')
    const writer = open(file, 16_000)
    write(writer, 2000)
    expect(fileSize(`${file}-wal`)).toBeGreaterThan(1900 * PAGE)
    writer.pragma('wal_checkpoint(PASSIVE)')
    write(writer, 1) // starts the WAL from its beginning
    expect(fileSize(`${file}-wal`)).toBeLessThanOrEqual(WAL_KEEP_BYTES)
  })
})
