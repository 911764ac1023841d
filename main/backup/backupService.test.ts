import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { JobProgress } from '@shared/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { appSchema } from '../appSchema'
import { openDatabase, type Db } from '../db/open'
import { EventBus } from '../kernel/events'
import { ensureHome } from '../kernel/home'
import { BackupService } from './backupService'
import { damageDatabase } from '../../tests/support/backupDamage'

const temp = useTempHome()
const dbs: Db[] = []
const services: BackupService[] = []
afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose()
  for (const db of dbs.splice(0)) db.close()
})

const HOUR = 60 * 60 * 1000

/** A service over a real loomverse.db, with a clock the test moves. */
function setup(options: { damage?: () => boolean } = {}) {
  const paths = ensureHome(join(temp(), 'home'))
  const { db } = openDatabase(paths.db, { domains: appSchema, label: 'loomverse.db' })
  dbs.push(db)
  mkdirSync(paths.images)
  writeFileSync(join(paths.images, 'a.png'), 'png')
  const bus = new EventBus()
  const progress: JobProgress[] = []
  bus.listen((event, data) => event === 'job_progress' && progress.push(data as JobProgress))
  const clock = { now: new Date(2025, 0, 1, 12, 0, 0) }
  const service = new BackupService({
    db,
    paths,
    bus,
    appVersion: '1.0.0',
    log: () => {},
    now: () => clock.now,
    beforeVerify: (dir) => {
      if (options.damage?.()) damageDatabase(join(dir, 'data', 'loomverse.db'))
    },
  })
  services.push(service)
  const folder = join(temp(), 'backups')
  mkdirSync(folder)
  const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms))
  return { service, paths, folder, progress, later }
}

describe('backup settings', () => {
  it('refuses a relative folder, one inside the data folder, a link or a file, saving nothing', async () => {
    const { service, paths, folder } = setup()
    const link = join(temp(), 'link')
    symlinkSync(folder, link)
    const homeLink = join(temp(), 'home-link')
    symlinkSync(paths.home, homeLink)
    const file = join(temp(), 'file.txt')
    writeFileSync(file, 'x')
    for (const [typed, message] of [
      ['backups', /must be an absolute path/],
      [join(paths.home, 'backups'), /lies inside the data folder/],
      [link, /is a link/],
      [join(homeLink, 'backups'), /lies inside the data folder/],
      [file, /is not a folder/],
    ] as const) {
      await expect(service.updateSettings({ folder: typed })).rejects.toMatchObject({
        code: 'bad_input',
        message: expect.stringMatching(message),
      })
    }
    await expect(service.updateSettings({ interval: 'daily' })).rejects.toThrow(/Pick a backup folder/)
    expect(service.settings()).toEqual({ folder: null, interval: 'off', keep: 7 })
    expect(await service.updateSettings({ folder, interval: 'weekly', keep: 3 })).toEqual({
      folder,
      interval: 'weekly',
      keep: 3,
    })
  })
})

describe('retention', () => {
  it('keeps the newest N complete backups, deleting older ones only after a new one is verified', async () => {
    let damage = false
    const { service, folder, later } = setup({ damage: () => damage })
    await service.updateSettings({ folder, keep: 2 })
    mkdirSync(join(folder, 'holiday photos'))
    mkdirSync(join(folder, '.tmp-loomverse-backup-20240101-000000-dead'))
    const made: string[] = []
    for (let i = 0; i < 3; i++) {
      made.push((await service.run('manual')).path!)
      later(HOUR)
    }
    const names = () => readdirSync(folder).sort()
    expect(names()).toEqual(
      [
        '.tmp-loomverse-backup-20240101-000000-dead',
        'holiday photos',
        'loomverse-backup-20250101-130000',
        'loomverse-backup-20250101-140000',
      ].sort(),
    )
    // A failed backup deletes nothing.
    damage = true
    const failed = await service.run('manual')
    expect(failed.ok).toBe(false)
    expect(names()).toHaveLength(4)
    damage = false
    const ok = await service.run('manual')
    expect(ok.removed).toEqual([made[1]])
    expect((await service.status()).backups.map((b) => b.name)).toEqual([
      'loomverse-backup-20250101-150000',
      'loomverse-backup-20250101-140000',
    ])
  })

  it('a backup to a folder given by hand is never pruned by the settings folder retention', async () => {
    const { service, folder } = setup()
    await service.updateSettings({ folder, keep: 1 })
    const elsewhere = join(temp(), 'usb')
    const first = await service.run('manual', elsewhere)
    const second = await service.run('manual', elsewhere)
    expect(second.removed).toEqual([])
    expect(readdirSync(elsewhere).sort()).toEqual(
      [first.path, second.path].map((p) => p!.slice(elsewhere.length + 1)).sort(),
    )
  })
})

describe('the schedule', () => {
  it('takes a backup at start-up when one is owed, then one period after the newest', async () => {
    const { service, folder, later, progress } = setup()
    expect(await service.runIfDue()).toBeNull() // off
    await service.updateSettings({ folder, interval: 'daily', keep: 5 })
    const next = await service.runIfDue()
    expect(readdirSync(folder)).toHaveLength(1)
    expect(next).toEqual(new Date(2025, 0, 2, 12, 0, 0))
    later(23 * HOUR)
    expect(await service.runIfDue()).toEqual(next)
    expect(readdirSync(folder)).toHaveLength(1)
    later(2 * HOUR)
    await service.runIfDue()
    expect(readdirSync(folder)).toHaveLength(2)
    expect(progress.at(-1)).toMatchObject({ job_id: 'backup', state: 'done' })
    expect((await service.status()).last).toMatchObject({ ok: true, trigger: 'schedule' })
  })

  it('a scheduled backup that cannot run says so in the status bar and tries again an hour later', async () => {
    const { service, folder, later, progress } = setup()
    await service.updateSettings({ folder, interval: 'daily' })
    rmSync(folder, { recursive: true })
    writeFileSync(folder, 'the drive is gone; a file took its name')
    const next = await service.runIfDue()
    const status = await service.status()
    expect(status.last).toMatchObject({
      ok: false,
      trigger: 'schedule',
      error: expect.stringMatching(/is not a folder/),
    })
    expect(progress.at(-1)).toMatchObject({ job_id: 'backup', state: 'failed', error: status.last!.error })
    expect(next).toEqual(new Date(2025, 0, 1, 13, 0, 0))
    expect(status.folder_error).not.toBeNull()
    later(30 * 60 * 1000)
    expect(await service.runIfDue()).toEqual(next)
  })

  it('removes half-built backups a crash left in its folder at start-up, even with none owed', async () => {
    const { service, folder } = setup()
    await service.updateSettings({ folder, interval: 'daily' })
    const fresh = await service.run('manual')
    const gone = spawnSync(process.execPath, ['-e', ''], { timeout: 10_000 }).pid!
    const crashed = join(folder, `.tmp-loomverse-backup-20250101-110000-${gone}-0badf00d`)
    mkdirSync(join(crashed, 'data'), { recursive: true })
    service.startSchedule()
    await service.dispose()
    expect(readdirSync(folder)).toEqual([fresh.path!.slice(folder.length + 1)])
  })

  it('answers a second backup asked for while one runs with a conflict', async () => {
    const { service, folder } = setup()
    const first = service.run('manual', folder)
    await expect(service.run('manual', folder)).rejects.toMatchObject({ code: 'conflict' })
    expect((await first).ok).toBe(true)
  })
})
