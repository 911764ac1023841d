import type Database from 'better-sqlite3'

/** The pause between two tries for the write lock. */
const STEP_MS = 0.2

const sleeper = new Int32Array(new SharedArrayBuffer(4))

/** Connections inside `withoutWaiting`: their immediate transactions try the write lock once. */
const tryingOnce = new WeakSet<Database.Database>()

/**
 * Runs `fn` with this connection's immediate transactions trying the write lock once: while
 * another connection holds it, they throw SQLITE_BUSY at once (`isBusy`) and nothing is written.
 * For a write nothing waits on, made while the thread has better things to do than wait: a chat
 * turn writing its node while the model's answer may arrive any moment (chatService.ts).
 * Only for connections made by `waitForWritesInShortSteps`.
 */
export function withoutWaiting<T>(db: Database.Database, fn: () => T): T {
  if (tryingOnce.has(db)) return fn()
  tryingOnce.add(db)
  try {
    return fn()
  } finally {
    tryingOnce.delete(db)
  }
}

export function isBusy(e: unknown): boolean {
  return (e as { code?: string } | null)?.code === 'SQLITE_BUSY'
}

/**
 * Makes this connection's immediate transactions wait for the write lock in steps of 0.2 ms,
 * instead of through SQLite's busy handler, which sleeps 1, 2, 5, 10… ms whatever the holder
 * does. For the main thread's connections: a worker holding the lock 2 ms at a time kept the main
 * thread's small writes waiting 5.5 ms at p95 and 11 ms at p99 (bench/db/busyWrites.ts).
 *
 * The lock is taken by a BEGIN IMMEDIATE of our own, retried while SQLite answers SQLITE_BUSY
 * and for no longer than the connection's busy_timeout; the body then runs in it directly and we
 * commit, or roll back on a throw. Not as a savepoint inside it: a savepoint journals the first
 * change to every page, and a large write (an import of 5,000 nodes into a database of 15,000)
 * took 4-10× longer that way, more the bigger the database. Deferred transactions, nested ones
 * and single statements are left as they were.
 */
export function waitForWritesInShortSteps(db: Database.Database): void {
  const waitMs = db.pragma('busy_timeout', { simple: true }) as number
  const noWait = db.prepare('PRAGMA busy_timeout = 0')
  const wait = db.prepare(`PRAGMA busy_timeout = ${Math.floor(waitMs)}`)
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')

  const beginImmediate = () => {
    noWait.get()
    try {
      for (const until = performance.now() + (tryingOnce.has(db) ? 0 : waitMs); ;) {
        try {
          begin.run()
          return
        } catch (e) {
          if (!isBusy(e) || performance.now() >= until) throw e
          Atomics.wait(sleeper, 0, 0, STEP_MS)
        }
      }
    } finally {
      wait.get()
    }
  }

  const transaction = db.transaction.bind(db)
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const made = transaction(fn)
    const immediate = function (this: unknown, ...args: unknown[]): unknown {
      if (db.inTransaction) return made.immediate.apply(this, args)
      beginImmediate()
      try {
        const result = fn.apply(this, args)
        // As better-sqlite3's own transactions: a body that waits would commit before its work.
        if (isPromise(result)) throw new TypeError('Transaction function cannot return a promise')
        commit.run()
        return result
      } catch (e) {
        // Ends ours, unless SQLite ended it already (a full disk, an interrupt).
        if (db.inTransaction) rollback.run()
        throw e
      }
    }
    return Object.assign(
      function (this: unknown, ...args: unknown[]): unknown {
        return made.apply(this, args)
      },
      { default: made.default, deferred: made.deferred, immediate, exclusive: made.exclusive, database: db },
    )
  }) as unknown as Database.Database['transaction']
}

function isPromise(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function'
}
