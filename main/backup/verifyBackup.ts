import type { BackupProblem, BackupVerifyReport } from '@shared/contract'
import { checkDatabase } from '../db/checkDatabase'
import { hashFile } from './fileCopy'
import { entryPath } from './homeInventory'
import { DATA_FOLDER, readManifest, type Manifest, type ManifestEntry } from './manifest'
import { join } from 'node:path'

export interface Verified extends BackupVerifyReport {
  /** The manifest as read; null when it could not be read at all. */
  manifest: Manifest | null
}

/**
 * Opens a backup and checks every entry of its manifest: each file's size and sha256 (read
 * without following a link), and each database opened read-only with SQLite's check and its
 * schema version compared with the manifest's. A backup is good only when nothing failed.
 */
export async function verifyBackup(backup: string, depth: 'quick' | 'full'): Promise<Verified> {
  let manifest: Manifest
  try {
    manifest = await readManifest(backup)
  } catch (e) {
    return {
      ok: false,
      backup,
      checked: [],
      failed: [{ path: 'manifest.json', reason: (e as Error).message }],
      manifest: null,
    }
  }
  const data = join(backup, DATA_FOLDER)
  const checked: string[] = []
  const failed: BackupProblem[] = []
  for (const entry of manifest.databases) {
    const problem =
      (await fileProblem(data, entry)) ??
      (await databaseProblem(entryPath(data, entry.path), entry.user_version, depth))
    if (problem) failed.push({ path: entry.path, reason: problem })
    else checked.push(entry.path)
  }
  for (const entry of manifest.files) {
    const problem = await fileProblem(data, entry)
    if (problem) failed.push({ path: entry.path, reason: problem })
    else checked.push(entry.path)
  }
  return { ok: failed.length === 0, backup, checked, failed, manifest }
}

async function fileProblem(data: string, entry: ManifestEntry): Promise<string | null> {
  try {
    const digest = await hashFile(entryPath(data, entry.path))
    if (digest.bytes !== entry.bytes) return `size ${digest.bytes} bytes, the manifest says ${entry.bytes}`
    if (digest.sha256 !== entry.sha256) return 'its sha256 differs from the manifest (the copy changed or is damaged)'
    return null
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? 'missing from the backup' : (e as Error).message
  }
}

async function databaseProblem(file: string, userVersion: number, depth: 'quick' | 'full'): Promise<string | null> {
  const check = await checkDatabase(file, depth)
  if (!check.ok) return `SQLite's check failed: ${check.problem}`
  if (check.userVersion !== userVersion) return `schema version ${check.userVersion}, the manifest says ${userVersion}`
  return null
}
