import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import type { Db } from '../db/open'
import { readManifest } from './manifest'
import { restoreBackup } from './restoreBackup'
import { takeBackup, type TakeBackupDeps } from './takeBackup'
import { verifyBackup } from './verifyBackup'
import { damageDatabase, resealManifest } from '../../tests/support/backupDamage'

const temp = useTempHome()
const open: Db[] = []
afterEach(() => {
  for (const db of open.splice(0)) db.close()
})

/** A data folder as the app leaves it: WAL databases (one held open, one closed), item files and clutter. */
function makeHome(): { home: string; main: Db } {
  const home = join(temp(), 'home')
  mkdirSync(join(home, 'memory'), { recursive: true })
  const main = new Database(join(home, 'loomverse.db'))
  open.push(main)
  main.pragma('journal_mode = WAL')
  main.exec('CREATE TABLE node (id INTEGER PRIMARY KEY, text TEXT)')
  main.pragma('user_version = 27')
  for (let i = 0; i < 500; i++) main.prepare('INSERT INTO node (text) VALUES (?)').run(`node ${i} ${'x'.repeat(200)}`)
  const memory = new Database(join(home, 'memory', 'memory_p1.db'))
  memory.pragma('journal_mode = WAL')
  memory.exec('CREATE TABLE units (id INTEGER PRIMARY KEY, text TEXT)')
  memory.prepare('INSERT INTO units (text) VALUES (?)').run('the plants need water')
  memory.pragma('user_version = 9')
  memory.close()
  mkdirSync(join(home, 'image'))
  writeFileSync(join(home, 'image', '20250101_000000_a.png'), Buffer.from([1, 2, 3, 4]))
  mkdirSync(join(home, 'scenarios', 'café'), { recursive: true })
  writeFileSync(join(home, 'scenarios', 'café', '00_world_setting.md'), '# World\n')
  writeFileSync(join(home, 'image', '.tmp-0123'), 'half written')
  mkdirSync(join(home, 'scenarios', '.tmp-story'))
  writeFileSync(join(home, 'scenarios', '.tmp-story', 'x.md'), 'half made')
  mkdirSync(join(home, 'run'))
  writeFileSync(join(home, 'run', '123.json'), '{}')
  writeFileSync(join(home, 'host.json'), '{"token":"secret"}')
  writeFileSync(join(home, 'browser-token'), 'kept-secret-token')
  mkdirSync(join(temp(), 'elsewhere'))
  symlinkSync(join(temp(), 'elsewhere'), join(home, 'documents'))
  // A FIFO where a file could be: opening it to read would wait forever.
  if (process.platform !== 'win32') execFileSync('mkfifo', [join(home, 'exports-pipe')])
  return { home, main }
}

function deps(home: string, main: Db | null, extra: Partial<TakeBackupDeps> = {}): TakeBackupDeps {
  return {
    home,
    mainDb: main,
    appVersion: '9.9.9',
    now: () => new Date(2025, 4, 9, 6, 48, 6),
    onProgress: () => {},
    stopped: () => null,
    ...extra,
  }
}

describe('takeBackup', () => {
  it('copies every database and file into a verified, timestamped folder with a manifest', async () => {
    const { home, main } = makeHome()
    const folder = join(temp(), 'backups')
    const taken = await takeBackup(folder, deps(home, main))

    expect(taken.path).toBe(join(folder, 'loomverse-backup-20250509-064806'))
    expect(readdirSync(folder)).toEqual(['loomverse-backup-20250509-064806'])
    const manifest = await readManifest(taken.path)
    expect(manifest.app_version).toBe('9.9.9')
    expect(manifest.databases.map((d) => [d.path, d.user_version])).toEqual([
      ['loomverse.db', 27],
      ['memory/memory_p1.db', 9],
    ])
    expect(manifest.files.map((f) => f.path)).toEqual([
      'image/20250101_000000_a.png',
      'scenarios/café/00_world_setting.md',
    ])
    expect(manifest.files[0]).toMatchObject({ bytes: 4, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })
    // Links and FIFOs are reported, never followed or opened; temp files and runtime files are not data.
    expect(manifest.skipped).toContainEqual({ path: 'documents', reason: 'a link (never followed)' })
    if (process.platform !== 'win32')
      expect(manifest.skipped).toContainEqual({ path: 'exports-pipe', reason: 'not a regular file' })
    const copied = readdirSync(join(taken.path, 'data'))
    expect(copied.sort()).toEqual(['image', 'loomverse.db', 'memory', 'scenarios'])
    // The copies are single files: opening one read-only leaves no -wal or -shm beside it.
    expect(readdirSync(join(taken.path, 'data', 'memory'))).toEqual(['memory_p1.db'])
    const verified = await verifyBackup(taken.path, 'full')
    expect(verified.ok).toBe(true)
    expect(verified.checked).toHaveLength(4)
    expect(readdirSync(join(taken.path, 'data', 'memory'))).toEqual(['memory_p1.db'])
  })

  it('a copy damaged before verification fails, and nothing is left that looks complete', async () => {
    const { home, main } = makeHome()
    const folder = join(temp(), 'backups')
    const attempt = takeBackup(
      folder,
      deps(home, main, { beforeVerify: (dir) => damageDatabase(join(dir, 'data', 'loomverse.db')) }),
    )
    await expect(attempt).rejects.toThrow(/the copy failed verification \(loomverse\.db: its sha256 differs/)
    expect(readdirSync(folder)).toEqual([])
  })

  it('gives up when asked to stop, removing its half-built folder', async () => {
    const { home, main } = makeHome()
    const folder = join(temp(), 'backups')
    await expect(takeBackup(folder, deps(home, main, { stopped: () => 'Loomverse is closing' }))).rejects.toThrow(
      'Loomverse is closing',
    )
    expect(readdirSync(folder)).toEqual([])
  })
})

describe('verifyBackup and restoreBackup', () => {
  it('restores into a new folder what the backup holds, byte for byte', async () => {
    const { home, main } = makeHome()
    const taken = await takeBackup(join(temp(), 'backups'), deps(home, null))
    main.prepare('INSERT INTO node (text) VALUES (?)').run('after the backup')
    const to = join(temp(), 'restored')
    const report = await restoreBackup(taken.path, to, home)
    expect(report).toMatchObject({ ok: true, home: to, failed: [] })
    expect(report.restored).toHaveLength(4)
    expect(readFileSync(join(to, 'scenarios', 'café', '00_world_setting.md'), 'utf8')).toBe('# World\n')
    const db = new Database(join(to, 'loomverse.db'), { readonly: true })
    expect(db.prepare('SELECT count(*) FROM node').pluck().get()).toBe(500)
    db.close()
    expect(existsSync(join(to, 'host.json'))).toBe(false)
    expect(existsSync(join(to, 'browser-token'))).toBe(false)
  })

  it('reports a database whose bytes were flipped, by its hash and by SQLite, and restores the rest', async () => {
    const { home, main } = makeHome()
    const taken = await takeBackup(join(temp(), 'backups'), deps(home, main))
    damageDatabase(join(taken.path, 'data', 'loomverse.db'))
    const byHash = await verifyBackup(taken.path, 'full')
    expect(byHash.ok).toBe(false)
    expect(byHash.failed).toEqual([{ path: 'loomverse.db', reason: expect.stringMatching(/sha256 differs/) }])

    // Even with a manifest rewritten to match the damage, opening the database finds it.
    await resealManifest(taken.path, 'loomverse.db')
    const bySqlite = await verifyBackup(taken.path, 'full')
    expect(bySqlite.failed).toEqual([{ path: 'loomverse.db', reason: expect.stringMatching(/SQLite's check failed/) }])

    const to = join(temp(), 'restored')
    const report = await restoreBackup(taken.path, to, home)
    expect(report.ok).toBe(false)
    expect(report.failed.map((f) => f.path)).toEqual(['loomverse.db'])
    expect(report.restored).toEqual([
      'memory/memory_p1.db',
      'image/20250101_000000_a.png',
      'scenarios/café/00_world_setting.md',
    ])
    expect(existsSync(join(to, 'loomverse.db'))).toBe(false)
  })

  it('refuses a target that exists, lies in the live home or is relative, changing nothing', async () => {
    const { home } = makeHome()
    const taken = await takeBackup(join(temp(), 'backups'), deps(home, null))
    const busy = join(temp(), 'busy')
    mkdirSync(busy)
    writeFileSync(join(busy, 'keep.txt'), 'mine')
    await expect(restoreBackup(taken.path, busy, home)).rejects.toMatchObject({ code: 'conflict' })
    await expect(restoreBackup(taken.path, join(home, 'inside'), home)).rejects.toMatchObject({ code: 'bad_input' })
    await expect(restoreBackup(taken.path, 'relative/home', home)).rejects.toMatchObject({ code: 'bad_input' })
    await expect(restoreBackup(join(temp(), 'nothing'), join(temp(), 'new'), home)).rejects.toMatchObject({
      code: 'bad_file',
    })
    expect(readdirSync(busy)).toEqual(['keep.txt'])
    expect(existsSync(join(temp(), 'new'))).toBe(false)
  })
})
