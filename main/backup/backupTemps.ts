import { randomUUID } from 'node:crypto'
import { lstat, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pidAlive } from '../kernel/pidAlive'

/**
 * A half-built backup: `.tmp-<backup name>-<pid>-<8 hex>`. The pid says which process is
 * writing it, so a crash's leftovers can be told from a backup another process (the app, `serve`,
 * the CLI) is taking in the same folder right now.
 */
const TEMP_BACKUP = /^\.tmp-loomverse-backup-\d{8}-\d{6}-(\d+)-[0-9a-f]{8}$/

/** The temp folders this process is building now (one per running backup, whatever service runs it). */
const buildingHere = new Set<string>()

/** A new temp folder name for the backup `name`, counted as being built until `done` is called. */
export function startBuilding(folder: string, name: string): { path: string; done: () => void } {
  const path = join(folder, `.tmp-${name}-${process.pid}-${randomUUID().slice(0, 8)}`)
  buildingHere.add(path)
  return { path, done: () => buildingHere.delete(path) }
}

/**
 * Removes the half-built backups a crash left in `folder`: folders (never links, whose targets
 * are not ours) with the temp name, written by a process that is gone, or by this one but no
 * longer being built. Anything else in the folder is left alone. Answers the paths removed.
 *
 * The pid is checked on this computer: a folder shared by two computers that back up into it at
 * the same moment could lose the other one's half-built copy, which that backup then reports as
 * failed; nothing complete is ever touched.
 */
export async function sweepBackupTemps(
  folder: string,
  isAlive: (pid: number) => boolean = pidAlive,
): Promise<string[]> {
  const names = await readdir(folder).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[]
    throw e
  })
  const removed: string[] = []
  for (const name of names) {
    const pid = TEMP_BACKUP.exec(name)?.[1]
    if (pid === undefined) continue
    const path = join(folder, name)
    const live = Number(pid) === process.pid ? buildingHere.has(path) : isAlive(Number(pid))
    if (live) continue
    const st = await lstat(path).catch(() => null)
    if (!st?.isDirectory()) continue
    await rm(path, { recursive: true, force: true })
    removed.push(path)
  }
  return removed
}
