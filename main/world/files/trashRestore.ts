import { randomUUID } from 'node:crypto'
import { lstatSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { AppError } from '@shared/errors'
import { itemFileName, summaryFileName } from './itemFileName'
import { exists, moveFile } from './moveFile'
import { pathInside, resolveItemPath } from './safePaths'
import type { TrashedItem } from './trashRecords'

/** A restore made ready: where the file will stand, and the steps to carry it out or take it back. */
export interface RestoreMove {
  /** The item's FILE_PATH once back (its old one if free, else a fresh name); null for an object. */
  filePath: string | null
  /** Moves the files home, then retires the trash folder so it no longer lists. */
  moveOut(): void
  /** Best effort, after a failed restore: the folder and its files go back as they were. */
  undo(): void
  /** After the rows are committed: removes the retired folder (a leftover is harmless, it never lists). */
  finish(): void
}

/**
 * Checks everything a restore will touch before anything moves: the original FILE_PATH must
 * be one of ours, the file must really be in the trash folder (a plain file, not a link),
 * and the place it goes back to must be free, or a fresh name is chosen by the usual rule.
 * Moving is a separate step, so the caller can do it inside the transaction that writes the rows.
 */
export function prepareRestore(home: string, trashed: TrashedItem): RestoreMove {
  const { dir, trashId, record } = trashed
  const files: Array<{ from: string; to: string }> = []
  let filePath: string | null = null
  if (record.item.file_path) {
    const { folder, name } = resolveItemPath(home, record.item.file_path)
    const source = pathInside(dir, name)
    if (!isPlainFile(source))
      throw new AppError('conflict', `the item's file ${name} is missing from trash/${trashId}; nothing was restored`, {
        key: 'trash_file_missing',
        params: { name },
      })
    const target = freeName(join(home, folder), name)
    filePath = `${folder}/${target}`
    files.push({ from: source, to: pathInside(join(home, folder), target) })
    // The summary is optional: it may never have been written.
    const summary = pathInside(dir, summaryFileName(name))
    if (isPlainFile(summary)) files.push({ from: summary, to: pathInside(join(home, folder), summaryFileName(target)) })
  }

  const retired = join(dirname(dir), `.restored-${trashId}-${randomUUID()}`)
  const moved: typeof files = []
  let isRetired = false
  return {
    filePath,
    moveOut() {
      for (const f of files) {
        moveFile(f.from, f.to)
        moved.push(f)
      }
      renameSync(dir, retired)
      isRetired = true
    },
    undo() {
      try {
        if (isRetired) renameSync(retired, dir)
        isRetired = false
        for (const f of moved.splice(0).reverse()) moveFile(f.to, f.from)
      } catch {
        // What cannot go back stays where it is, beside the rows that were rolled back: kept, not lost.
      }
    },
    finish() {
      try {
        rmSync(retired, { recursive: true, force: true })
      } catch {
        // The item is back already; a retired folder left behind is never listed.
      }
    },
  }
}

/** The original name if neither it nor its summary is taken in `dir`, else a new one with the same extension. */
function freeName(dir: string, name: string): string {
  if (!exists(pathInside(dir, name)) && !exists(pathInside(dir, summaryFileName(name)))) return name
  const ext = /\.([a-z0-9]{1,8})$/.exec(name)![1]!
  return itemFileName(ext)
}

function isPlainFile(path: string): boolean {
  try {
    return lstatSync(path).isFile()
  } catch {
    return false
  }
}
