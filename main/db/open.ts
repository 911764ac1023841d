import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { migrateDomains, type DomainSchema } from './domainMigrations'
import { migrate, type Migration, type MigrationReport } from './migrate'
import { waitForWritesInShortSteps } from './shortBusyWaits'
import { WAL_KEEP_BYTES } from './walCheckpoints'

export type Db = Database.Database

/**
 * A database with one schema version (a persona's memory database: `migrations`), or the app
 * database, whose domains each own their tables and version (`domains`, in the order the
 * composition root lists them).
 */
export type OpenOptions = CommonOpenOptions &
  ({ migrations: readonly Migration[]; domains?: never } | { domains: readonly DomainSchema[]; migrations?: never })

interface CommonOpenOptions {
  /** Shown in errors, e.g. "loomverse.db". */
  label: string
  readonly?: boolean
  /**
   * Pages the WAL may reach before this connection's commit checkpoints it: SQLite's 1,000 by
   * default; higher where a worker's connection checkpoints it (walCheckpoints.ts), so the
   * main thread's writes do not wait for it.
   */
  walBound?: number
  /**
   * The main thread's connection: its immediate transactions wait for a worker's write lock in
   * short steps (shortBusyWaits.ts), not in SQLite's sleeps of 1, 2, 5, 10… ms.
   */
  shortBusyWaits?: boolean
}

export interface Opened {
  db: Db
  migration: MigrationReport
}

/**
 * Opens a SQLite file the way every Loomverse database is opened: sqlite-vec loaded,
 * the PRAGMAs of seed 002, a busy timeout so the job worker and the main thread can share
 * a WAL file, then migrations. `:memory:` works for tests.
 */
export function openDatabase(file: string, options: OpenOptions): Opened {
  const db = new Database(file, { readonly: options.readonly ?? false, nativeBinding: nativeBinding() })
  try {
    db.loadExtension(vecExtensionPath())
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('temp_store = MEMORY')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    if (options.walBound !== undefined) db.pragma(`wal_autocheckpoint = ${options.walBound}`)
    // A WAL started over is cut back to this, not left at the largest it ever was (walCheckpoints.ts).
    db.pragma(`journal_size_limit = ${WAL_KEEP_BYTES}`)
    if (options.shortBusyWaits) waitForWritesInShortSteps(db)
    const migration = options.domains
      ? migrateDomains(db, options.domains, options.label)
      : migrate(db, options.migrations, options.label)
    return { db, migration }
  } catch (e) {
    db.close()
    throw e
  }
}

/**
 * A plain connection to an existing file: sqlite-vec loaded, no PRAGMA that writes, no
 * migrations. Backups read live databases through it and check their copies with it.
 */
export function openExisting(file: string, options: { readonly: boolean }): Db {
  const db = new Database(file, { readonly: options.readonly, fileMustExist: true, nativeBinding: nativeBinding() })
  try {
    db.loadExtension(vecExtensionPath())
    db.pragma('busy_timeout = 5000')
    return db
  } catch (e) {
    db.close()
    throw e
  }
}

/**
 * In a packaged app, sqlite-vec's library sits in `app.asar.unpacked` (electron-builder
 * unpacks it; a shared library cannot be loaded from inside an archive).
 */
export function vecExtensionPath(): string {
  return sqliteVec.getLoadablePath().replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')
}

/**
 * `npm start` runs Electron against a copy of better-sqlite3 built for Electron's ABI and
 * names it here, so node_modules stays built for Node and `npm test` never needs a rebuild.
 * Packaged apps use the module electron-builder rebuilt, so the variable is unset there.
 */
export function nativeBinding(): string | undefined {
  return process.env.LOOMVERSE_SQLITE_BINDING || undefined
}
