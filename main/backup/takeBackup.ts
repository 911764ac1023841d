import { existsSync } from 'node:fs'
import { lstat, mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { openExisting, type Db } from '../db/open'
import { isoNow } from '../kernel/time'
import { startBuilding, sweepBackupTemps } from './backupTemps'
import { copyFileHashed, hashFile, NotARegularFile } from './fileCopy'
import { entryPath, listHome } from './homeInventory'
import { DATA_FOLDER, newManifest, writeManifest, type Manifest } from './manifest'
import { backupName } from './retention'
import { copyDatabase, settleCopy } from './sqliteCopy'
import { verifyBackup } from './verifyBackup'

export interface TakeBackupDeps {
  home: string
  /** The app's own connection to loomverse.db: its commits go into the copy as they happen. */
  mainDb: Db | null
  appVersion: string
  now: () => Date
  /** After each database and each file. */
  onProgress: (done: number, total: number) => void
  /** A reason to give up (the app is closing), or null to go on. */
  stopped: () => string | null
  /** Tests damage a copy here, before it is verified. */
  beforeVerify?: (building: string) => void | Promise<void>
}

export interface Taken {
  path: string
  manifest: Manifest
  bytes: number
}

/**
 * Takes one backup of the data folder into a new folder under `folder`. It is built under a
 * `.tmp-` name, verified by opening it, and only then renamed to its final name: a backup
 * that fails is removed and a crash leaves only a `.tmp-` folder, so nothing incomplete ever
 * looks complete. Such leftovers of earlier runs are removed first.
 */
export async function takeBackup(folder: string, deps: TakeBackupDeps): Promise<Taken> {
  await mkdir(folder, { recursive: true })
  await sweepBackupTemps(folder)
  const createdAt = deps.now()
  const name = backupName(createdAt)
  const { path: building, done } = startBuilding(folder, name)
  try {
    await mkdir(building)
    const manifest = await copyHome(join(building, DATA_FOLDER), createdAt, deps)
    writeManifest(building, manifest)
    await deps.beforeVerify?.(building)
    const verified = await verifyBackup(building, 'quick')
    if (!verified.ok) {
      const first = verified.failed.slice(0, 3).map((f) => `${f.path}: ${f.reason}`)
      throw new Error(`the copy failed verification (${first.join('; ')})`)
    }
    const path = await freeName(folder, name)
    await rename(building, path)
    const bytes = [...manifest.databases, ...manifest.files].reduce((sum, e) => sum + e.bytes, 0)
    return { path, manifest, bytes }
  } catch (e) {
    await rm(building, { recursive: true, force: true })
    throw e
  } finally {
    done()
  }
}

async function copyHome(data: string, createdAt: Date, deps: TakeBackupDeps): Promise<Manifest> {
  const inventory = await listHome(deps.home)
  const manifest = newManifest(deps.appVersion, isoNow(createdAt))
  manifest.skipped = inventory.skipped
  const total = inventory.databases.length + inventory.files.length
  let done = 0
  for (const path of inventory.databases) {
    const from = entryPath(deps.home, path)
    const to = entryPath(data, path)
    const own = path === 'loomverse.db' ? deps.mainDb : null
    // A persona deleted since the listing took its memory with it.
    if (!own && !existsSync(from)) continue
    const source = own ?? openExisting(from, { readonly: true })
    try {
      await copyDatabase(source, to, deps.stopped)
    } finally {
      if (!own) source.close()
    }
    const user_version = settleCopy(to)
    manifest.databases.push({ path, ...(await hashFile(to)), user_version })
    deps.onProgress(++done, total)
  }
  for (const path of inventory.files) {
    const reason = deps.stopped()
    if (reason) throw new Error(reason)
    try {
      manifest.files.push({ path, ...(await copyFileHashed(entryPath(deps.home, path), entryPath(data, path))) })
    } catch (e) {
      // Gone since the listing (a deleted item) or swapped for a link: not part of the data now.
      if (e instanceof NotARegularFile) manifest.skipped.push({ path, reason: e.message })
      else if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    }
    deps.onProgress(++done, total)
  }
  return manifest
}

/** The backup's final name; a second backup within the same second gets `-2`, `-3`… */
async function freeName(folder: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const path = join(folder, n === 1 ? name : `${name}-${n}`)
    const taken = await lstat(path).then(
      () => true,
      () => false,
    )
    if (!taken) return path
  }
}
