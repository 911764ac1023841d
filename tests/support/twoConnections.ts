import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase, type Db } from '../../main/db/open'

/**
 * One database file in a temporary folder, opened twice by `open`: the first for the app, the
 * second for what another process writes (the CLI, a worker), whose commits the first sees only
 * through the database. Closed and removed after each test.
 */
export function useTwoOpenings<T>(fileName: string, open: (file: string) => T, close: (opened: T) => void) {
  let dir: string | null = null
  const opened: T[] = []
  afterEach(() => {
    for (const o of opened.splice(0)) close(o)
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = null
  })
  return (): [T, T] => {
    dir = mkdtempSync(join(tmpdir(), 'loomverse-two-connections-'))
    const file = join(dir, fileName)
    const pair: [T, T] = [open(file), open(file)]
    opened.push(...pair)
    return pair
  }
}

/** A migrated `loomverse.db` opened twice: `db` for the app, `other` for another process. */
export function useTwoConnections(): () => { db: Db; other: Db } {
  const twice = useTwoOpenings(
    'loomverse.db',
    (file) => openDatabase(file, { migrations: appMigrations, label: 'loomverse.db' }).db,
    (db) => db.close(),
  )
  return () => {
    const [db, other] = twice()
    return { db, other }
  }
}
