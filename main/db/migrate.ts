import type { Database } from 'better-sqlite3'
import { AppError } from '@shared/errors'

export interface Migration {
  /** 1, 2, 3… with no gaps: the DB's `PRAGMA user_version` after this step. */
  version: number
  name: string
  up(db: Database): void
}

/** A step as its file declares it: its version is its place in the list (numbered). */
export type MigrationStep = Omit<Migration, 'version'>

/**
 * A list of steps, oldest first, numbered 1, 2, 3… by their place: a step's file holds its name
 * and its work, and appending its import to the list is all that adding one takes.
 */
export function numbered<S extends MigrationStep>(steps: readonly S[]): Array<S & { version: number }> {
  return steps.map((step, i) => ({ ...step, version: i + 1 }))
}

export interface MigrationReport {
  from: number
  to: number
  applied: string[]
}

/**
 * Brings a database to the newest schema. All pending steps run in one transaction, so a
 * failing step leaves the file exactly as it was. A database written by a newer app is
 * refused rather than touched: an older app could silently corrupt what it does not know.
 */
export function migrate(db: Database, migrations: readonly Migration[], label: string): MigrationReport {
  checkOrder(migrations)
  const latest = migrations.at(-1)?.version ?? 0
  const from = schemaVersion(db)
  if (from > latest) {
    throw new AppError(
      'db_too_new',
      `${label} has schema version ${from}, but this Loomverse knows only up to ${latest}. ` +
        'It was written by a newer Loomverse: update the app, or restore a backup made by this version.',
    )
  }
  const pending = migrations.filter((m) => m.version > from)
  if (pending.length === 0) return { from, to: from, applied: [] }
  db.transaction(() => {
    for (const step of pending) step.up(db)
    // user_version cannot be bound as a parameter; `latest` is an integer we computed.
    db.pragma(`user_version = ${latest}`)
  }).immediate()
  return { from, to: latest, applied: pending.map((m) => `${String(m.version).padStart(4, '0')}-${m.name}`) }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

export function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`)
  })
}
