import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { BackupEntry } from '@shared/contract'
import { readManifest } from './manifest'

const PREFIX = 'loomverse-backup-'
/** A complete backup's folder name: `loomverse-backup-YYYYMMDD-HHMMSS`, `-2`… for a second in the same second. */
const COMPLETE_NAME = /^loomverse-backup-\d{8}-\d{6}(-\d+)?$/

/** The folder name of a backup taken at `at`, in local time so it sorts and reads naturally. */
export function backupName(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return (
    `${PREFIX}${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}` +
    `-${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`
  )
}

/**
 * The complete backups in a folder, newest first: folders (never links) with a backup's name
 * and a manifest that reads. Half-built `.tmp-` folders and anything else are not listed, so
 * they are never counted, offered for a restore or deleted by retention.
 */
export async function listBackups(folder: string): Promise<BackupEntry[]> {
  const entries = await readdir(folder, { withFileTypes: true })
  const found: BackupEntry[] = []
  for (const entry of entries) {
    if (!entry.isDirectory() || !COMPLETE_NAME.test(entry.name)) continue
    const path = join(folder, entry.name)
    const manifest = await readManifest(path).catch(() => null)
    if (!manifest) continue
    const all = [...manifest.databases, ...manifest.files]
    found.push({
      path,
      name: entry.name,
      created_at: manifest.created_at,
      app_version: manifest.app_version,
      files: all.length,
      bytes: all.reduce((sum, e) => sum + e.bytes, 0),
    })
  }
  // Names carry the local time to the second; the suffix orders backups within one second.
  return found.sort((a, b) => sortKey(b.name).localeCompare(sortKey(a.name)))
}

function sortKey(name: string): string {
  const [, stamp, n] = /^loomverse-backup-(\d{8}-\d{6})(?:-(\d+))?$/.exec(name) ?? []
  return `${stamp}-${(n ?? '1').padStart(6, '0')}`
}

/**
 * Keeps the newest `keep` complete backups and deletes the older ones. Called only after a new
 * backup was verified, with that backup's path: it is always kept, whatever the clock says.
 */
export async function pruneBackups(folder: string, keep: number, verified: string): Promise<string[]> {
  const backups = (await listBackups(folder)).filter((b) => b.path !== verified)
  const removed: string[] = []
  for (const old of backups.slice(Math.max(0, keep - 1))) {
    await rm(old.path, { recursive: true, force: true })
    removed.push(old.path)
  }
  return removed
}
