import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import Database from 'better-sqlite3'
import { vecExtensionPath } from '../../main/db/open'
import { homePaths } from '../../main/kernel/home'

export interface IntegrityResult {
  /** Relative to the data home: `loomverse.db`, `memory/memory_<persona>.db`. */
  file: string
  ok: boolean
  /** `ok`, or what SQLite found wrong (or why the file could not be opened). */
  report: string
}

/** Every SQLite database of a data home: the app's and each persona's memory. */
export function databasesOf(home: string): string[] {
  const paths = homePaths(home)
  const memory = existsSync(paths.memory)
    ? readdirSync(paths.memory)
        .filter((f) => f.endsWith('.db'))
        .map((f) => join(paths.memory, f))
    : []
  return [paths.db, ...memory].filter((f) => existsSync(f))
}

/**
 * `PRAGMA integrity_check` on every database of the home, through a read-only connection of
 * its own (the app may be running on it). sqlite-vec is loaded so its tables can be checked too.
 */
export function checkIntegrity(home: string): IntegrityResult[] {
  return databasesOf(home).map((path) => {
    const file = relative(home, path)
    let db: Database.Database | null = null
    try {
      db = new Database(path, { readonly: true })
      db.loadExtension(vecExtensionPath())
      db.pragma('busy_timeout = 10000')
      const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>
      const report = rows.map((r) => r.integrity_check).join('; ')
      return { file, ok: report === 'ok', report }
    } catch (e) {
      return { file, ok: false, report: `could not be checked: ${e instanceof Error ? e.message : String(e)}` }
    } finally {
      db?.close()
    }
  })
}
