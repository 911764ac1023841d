import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { hashFile } from '../../main/backup/fileCopy'
import { entryPath } from '../../main/backup/homeInventory'
import { DATA_FOLDER, readManifest, writeManifest } from '../../main/backup/manifest'

// Test support: damage a backup the way a failing disk would.

/** Flips bytes in the middle of a database's second page: its b-tree no longer reads. */
export function damageDatabase(file: string): void {
  const bytes = readFileSync(file)
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16)
  for (let i = pageSize; i < pageSize + 64 && i < bytes.length; i++) bytes[i] = bytes[i]! ^ 0xff
  writeFileSync(file, bytes)
}

/** Rewrites the manifest's size and hash of one entry to match the file as it is now. */
export async function resealManifest(backup: string, path: string): Promise<void> {
  const manifest = await readManifest(backup)
  const digest = await hashFile(entryPath(join(backup, DATA_FOLDER), path))
  for (const entry of [...manifest.databases, ...manifest.files]) if (entry.path === path) Object.assign(entry, digest)
  writeManifest(backup, manifest)
}
