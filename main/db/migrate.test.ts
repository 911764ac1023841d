import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppError } from '@shared/errors'
import { useTempHome } from '../../tests/support/tempHome'
import { migrate, schemaVersion, type Migration } from './migrate'
import { appSchema } from '../appSchema'
import { totalSteps } from './domainMigrations'
import { openDatabase } from './open'

const steps: Migration[] = [
  {
    version: 1,
    name: 'create-notes',
    up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT'),
  },
  {
    version: 2,
    name: 'add-notes-pinned',
    up: (db) => db.exec('ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0'),
  },
]

function memoryDb(migrations: readonly Migration[] = []) {
  return openDatabase(':memory:', { migrations, label: 'test.db' })
}

describe('migrations', () => {
  it('creates loomverse.db from nothing with the settings table at the newest version', () => {
    const { db, migration } = openDatabase(':memory:', { domains: appSchema, label: 'test.db' })
    expect(migration).toEqual({
      from: 0,
      to: totalSteps(appSchema),
      applied: appSchema.flatMap((s) =>
        s.migrations.map((m) => `${s.domain}/${String(m.version).padStart(4, '0')}-${m.name}`),
      ),
    })
    expect(schemaVersion(db)).toBe(totalSteps(appSchema))
    db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)').run('theme', '"dark"', 1)
    expect(() =>
      db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)').run('x', 'not json', 1),
    ).toThrow()
  })

  it('does nothing when run again on an up-to-date database', () => {
    const { db } = memoryDb(steps)
    db.prepare('INSERT INTO notes (body) VALUES (?)').run('kept')
    expect(migrate(db, steps, 'test.db')).toEqual({ from: 2, to: 2, applied: [] })
    expect(db.prepare('SELECT body, pinned FROM notes').all()).toEqual([{ body: 'kept', pinned: 0 }])
  })

  it('migrates a seeded older database forward, keeping its rows', () => {
    const { db } = memoryDb(steps.slice(0, 1))
    db.prepare('INSERT INTO notes (body) VALUES (?)').run('from v1')
    expect(migrate(db, steps, 'test.db')).toEqual({ from: 1, to: 2, applied: ['0002-add-notes-pinned'] })
    expect(db.prepare('SELECT body, pinned FROM notes').all()).toEqual([{ body: 'from v1', pinned: 0 }])
  })

  it('rolls every pending step back when one fails, leaving the version unchanged', () => {
    const { db } = memoryDb([])
    const broken: Migration[] = [
      ...steps,
      { version: 3, name: 'broken', up: (d) => d.exec('ALTER TABLE nope ADD COLUMN x') },
    ]
    expect(() => migrate(db, broken, 'test.db')).toThrow(/no such table: nope/)
    expect(schemaVersion(db)).toBe(0)
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'notes'").get()).toBeUndefined()
  })

  it('refuses a database written by a newer app, naming both versions, and leaves it untouched', () => {
    const { db } = memoryDb(steps)
    db.pragma('user_version = 9')
    let error: unknown
    try {
      migrate(db, steps, 'loomverse.db')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('db_too_new')
    expect((error as AppError).message).toMatch(
      /loomverse\.db has schema version 9, but this Loomverse knows only up to 2/,
    )
    expect(schemaVersion(db)).toBe(9)
  })

  it('rejects a migration list with a gap', () => {
    const { db } = memoryDb([])
    expect(() => migrate(db, [steps[1]!], 'test.db')).toThrow(/expected 1/)
  })
})

describe('openDatabase', () => {
  const home = useTempHome()

  it('opens a real file in WAL mode with foreign keys, a busy timeout and sqlite-vec loaded', () => {
    const file = join(home(), 'loomverse.db')
    const { db } = openDatabase(file, { domains: appSchema, label: 'loomverse.db' })
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('synchronous', { simple: true })).toBe(1) // NORMAL
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
    db.exec('CREATE VIRTUAL TABLE v USING vec0(embedding float[2])')
    db.prepare('INSERT INTO v (rowid, embedding) VALUES (?, ?)').run(1n, new Float32Array([0, 1]))
    const near = db.prepare('SELECT rowid FROM v WHERE embedding MATCH ? AND k = 1').get(new Float32Array([0, 0.9]))
    expect(near).toEqual({ rowid: 1 })
    db.close()
  })

  it('keeps data across reopen and refuses the file after a newer app wrote it', () => {
    const file = join(home(), 'loomverse.db')
    const first = openDatabase(file, { domains: appSchema, label: 'loomverse.db' })
    first.db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)').run('theme', '"dark"', 1)
    first.db.pragma('user_version = 99')
    first.db.close()
    expect(() => openDatabase(file, { domains: appSchema, label: 'loomverse.db' })).toThrow(/newer Loomverse/)
  })
})
