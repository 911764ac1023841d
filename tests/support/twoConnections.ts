import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase, type Db } from '../../main/db/open'

/**
 * A migrated `loomverse.db` in a temporary folder, opened twice: `db` for the app, `other` for
 * what another process writes (the CLI, the job worker), whose commits this one sees only
 * through the database. Closed and removed after each test.
 */
export function useTwoConnections(): () => { db: Db; other: Db } {
  let dir: string | null = null
  const open: Db[] = []
  afterEach(() => {
    for (const db of open.splice(0)) db.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = null
  })
  return () => {
    dir = mkdtempSync(join(tmpdir(), 'loomverse-two-connections-'))
    const file = join(dir, 'loomverse.db')
    const { db } = openDatabase(file, { migrations: appMigrations, label: 'loomverse.db' })
    const other = openDatabase(file, { migrations: appMigrations, label: 'loomverse.db' }).db
    open.push(db, other)
    return { db, other }
  }
}
