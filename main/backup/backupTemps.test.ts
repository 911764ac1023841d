import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { startBuilding, sweepBackupTemps } from './backupTemps'
import { takeBackup } from './takeBackup'

const temp = useTempHome()

/** The pid of a process that has already exited: what a crash leaves in a temp name. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { timeout: 10_000 })
  return child.pid!
}

/** A half-built backup as a run of process `pid` leaves it, with a file inside. */
function leftover(folder: string, pid: number, hex = 'ab12cd34'): string {
  const name = `.tmp-loomverse-backup-20250101-120000-${pid}-${hex}`
  mkdirSync(join(folder, name, 'data'), { recursive: true })
  writeFileSync(join(folder, name, 'data', 'loomverse.db'), 'half copied')
  return name
}

describe('half-built backups left by a crash', () => {
  it('are removed when the next backup starts; live ones, links and other names are left alone', async () => {
    const home = join(temp(), 'home')
    mkdirSync(home)
    new Database(join(home, 'loomverse.db')).close()
    const folder = join(temp(), 'backups')
    mkdirSync(folder)
    const crashed = leftover(folder, deadPid())
    // Another process backing up into the same folder right now (the test runner's parent lives).
    const otherLive = leftover(folder, process.ppid)
    const outside = join(temp(), 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'keep.txt'), 'not ours')
    const link = `.tmp-loomverse-backup-20250101-120000-${deadPid()}-0000beef`
    symlinkSync(outside, join(folder, link))
    const notOurs = ['.tmp-loomverse-backup-by-hand', '.tmp-photos']
    for (const name of notOurs) mkdirSync(join(folder, name))

    const taken = await takeBackup(folder, {
      home,
      mainDb: null,
      appVersion: '1.0.0',
      now: () => new Date(2025, 0, 2, 8, 0, 0),
      onProgress: () => {},
      stopped: () => null,
    })

    const names = readdirSync(folder).sort()
    expect(names).not.toContain(crashed)
    expect(names).toEqual([otherLive, link, ...notOurs, 'loomverse-backup-20250102-080000'].sort())
    expect(readdirSync(outside)).toEqual(['keep.txt'])
    expect(taken.path).toBe(join(folder, 'loomverse-backup-20250102-080000'))
  })

  it("keep this process's backup while it is being built, and remove it once nobody builds it", async () => {
    const folder = join(temp(), 'backups')
    mkdirSync(folder)
    const building = startBuilding(folder, 'loomverse-backup-20250101-120000')
    mkdirSync(building.path)
    expect(await sweepBackupTemps(folder, () => false)).toEqual([])
    building.done()
    expect(await sweepBackupTemps(folder, () => true)).toEqual([building.path])
    expect(readdirSync(folder)).toEqual([])
  })

  it('answer nothing for a folder that does not exist yet', async () => {
    expect(await sweepBackupTemps(join(temp(), 'not-yet'))).toEqual([])
  })
})
