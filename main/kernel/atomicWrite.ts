import { randomUUID } from 'node:crypto'
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** writeFileAtomic's temp files: `.tmp-<uuid>`, left behind only by a crash mid-write (start-up sweeps them). */
export const TEMP_FILE = /^\.tmp-[0-9a-f-]{36}$/

/**
 * Writes the whole file or nothing: a temp file beside it, flushed to disk, then renamed
 * over the target (atomic on one file system). A crash leaves the old file or the new one,
 * never half of either.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = join(dirname(path), `.tmp-${randomUUID()}`)
  const fd = openSync(temp, 'wx', 0o600)
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    let off = 0
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off)
    fsyncSync(fd)
  } catch (e) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw e
  }
  closeSync(fd)
  try {
    renameSync(temp, path)
  } catch (e) {
    rmSync(temp, { force: true })
    throw e
  }
  syncDir(dirname(path))
}

/** The rename itself is durable only once the directory is flushed (not possible on Windows). */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    // Windows cannot open a directory for fsync; the rename is still atomic there.
  }
}
