import type { Statement } from 'better-sqlite3'
import { LRUCache } from 'lru-cache'
import type { Db } from './open'

/**
 * How many distinct statements one connection keeps compiled (SQL built with a varying number of
 * placeholders would otherwise grow it without end). Every store on the connection shares them.
 */
const KEEP = 512

/** Each connection's statements, shared by whoever asks for them (see below). */
const byConnection = new WeakMap<Db, (sql: string) => Statement>()

/**
 * Compiled statements, reused by their SQL text. better-sqlite3 compiles the SQL on every
 * `prepare`, which was a tenth of the main thread's time on a chat turn (tens of prepares per
 * turn, for the same few dozen statements). Each statement is handed out with its result mode
 * reset, so a caller that plucks never changes what the next caller of the same SQL reads; a
 * caller must take the statement afresh for each use and never keep it in a field (a kept one
 * could have its mode reset under it). A statement still iterating is busy: a nested use of the
 * same SQL gets a fresh one.
 *
 * One cache a connection, however many ask: short-lived users (a job queue made for one enqueue,
 * a helper given only the connection) compiled their SQL afresh each time, ~15 statements a chat
 * turn, and each new statement is a native object the collector must visit in every young
 * generation it lives in.
 */
export function statements(db: Db): (sql: string) => Statement {
  let shared = byConnection.get(db)
  if (!shared) byConnection.set(db, (shared = compiledFor(db)))
  return shared
}

function compiledFor(db: Db): (sql: string) => Statement {
  const compiled = new LRUCache<string, Statement>({ max: KEEP })
  return (sql) => {
    const cached = compiled.get(sql)
    if (cached?.busy) return db.prepare(sql)
    if (cached) return cached.reader ? cached.raw(false).pluck(false).expand(false) : cached
    const fresh = db.prepare(sql)
    compiled.set(sql, fresh)
    return fresh
  }
}
