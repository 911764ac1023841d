import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { BackupProblem } from '@shared/contract'

/** What a backup takes from the data folder; paths are relative, with `/` on every platform. */
export interface Inventory {
  /** SQLite databases, copied with SQLite's online backup: loomverse.db, then each memory. */
  databases: string[]
  /** Every other regular file, copied byte for byte. */
  files: string[]
  /** Links and special files, left out and reported. */
  skipped: BackupProblem[]
}

const MAIN_DB = 'loomverse.db'
const MEMORY_DB = /^memory\/memory_[^/]+\.db$/
/** A database's WAL, shared memory or rollback journal: the online backup already read through them. */
const DB_SIDE_FILE = /\.db-(wal|shm|journal)$/
/**
 * What belongs to one running process or one machine's browser, not to the data: live-process
 * markers, the host's port and token, browser mode's kept token and the MCP servers' keys kept
 * without a keychain (secrets: a backup handed to someone else must not carry them).
 */
const RUNTIME = new Set(['run', 'host.json', 'browser-token', 'mcp-secrets.json'])
/** Half-written files and folders (atomic writes, imports, story saves): never data yet. */
const TEMP = /^\.tmp-/

/** Lists the data folder, never following a link. */
export async function listHome(home: string): Promise<Inventory> {
  const inventory: Inventory = { databases: [], files: [], skipped: [] }
  await walk(home, '', inventory)
  inventory.databases.sort((a, b) => (a === MAIN_DB ? -1 : b === MAIN_DB ? 1 : a.localeCompare(b)))
  inventory.files.sort()
  return inventory
}

async function walk(dir: string, prefix: string, into: Inventory): Promise<void> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (e) {
    // A folder deleted while we walk (an emptied trash entry) has nothing left to copy.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && prefix) return
    throw e
  }
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name
    if (TEMP.test(entry.name) || (!prefix && RUNTIME.has(entry.name))) continue
    if (entry.isSymbolicLink()) into.skipped.push({ path, reason: 'a link (never followed)' })
    else if (entry.isDirectory()) await walk(join(dir, entry.name), path, into)
    else if (!entry.isFile()) into.skipped.push({ path, reason: 'not a regular file' })
    else if (path === MAIN_DB || MEMORY_DB.test(path)) into.databases.push(path)
    else if (!DB_SIDE_FILE.test(entry.name)) into.files.push(path)
  }
}

/** The absolute path of an inventory entry under `root`. */
export function entryPath(root: string, relativePath: string): string {
  return join(root, ...relativePath.split('/'))
}
