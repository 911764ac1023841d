import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, rmdir } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { BackupProblem, RestoreReport } from '@shared/contract'
import { AppError } from '@shared/errors'
import { checkNewHome } from './backupFolder'
import { copyFileHashed } from './fileCopy'
import { entryPath } from './homeInventory'
import { DATA_FOLDER } from './manifest'
import { verifyBackup } from './verifyBackup'

/**
 * Restores a backup into a new data folder, never over an existing one (and never the live
 * one): every entry is verified first (sha256, and SQLite's full integrity_check for the
 * databases), the good ones are copied into a `.tmp-` folder beside the target, and that is
 * renamed into place. The report lists what was restored and what failed verification.
 */
export async function restoreBackup(
  backupTyped: string,
  toTyped: string,
  liveHome: string | null,
): Promise<RestoreReport> {
  if (!isAbsolute(backupTyped))
    throw new AppError('bad_input', `The backup must be an absolute path, got "${backupTyped}"`)
  const backup = resolve(backupTyped)
  const to = await checkNewHome(toTyped, liveHome)
  const verified = await verifyBackup(backup, 'full')
  const manifest = verified.manifest
  if (!manifest) throw new AppError('bad_file', `"${backup}" ${verified.failed[0]?.reason ?? 'cannot be read'}`)

  const bad = new Set(verified.failed.map((f) => f.path))
  const failed: BackupProblem[] = [...verified.failed]
  const restored: string[] = []
  const data = join(backup, DATA_FOLDER)
  const building = join(dirname(to), `.tmp-restore-${randomUUID().slice(0, 8)}`)
  await mkdir(building, { mode: 0o700 })
  try {
    for (const entry of [...manifest.databases, ...manifest.files]) {
      if (bad.has(entry.path)) continue
      const target = entryPath(building, entry.path)
      const copied = await copyFileHashed(entryPath(data, entry.path), target)
      if (copied.sha256 === entry.sha256) restored.push(entry.path)
      else {
        await rm(target, { force: true })
        failed.push({ path: entry.path, reason: 'changed in the backup while it was restored' })
      }
    }
    // checkNewHome allowed an empty folder at the target: the finished copy takes its place.
    await rmdir(to).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e
    })
    await rename(building, to)
  } catch (e) {
    await rm(building, { recursive: true, force: true })
    throw e
  }
  return { ok: failed.length === 0, backup, home: to, restored, failed }
}
