import { randomUUID } from 'node:crypto'
import { copyFileSync, constants, lstatSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { DocumentVersion, Item } from '@shared/contract'
import { writeFileAtomic } from './atomicWrite'
import { summaryFileName, timeStamp } from './itemFileName'
import { checkFolderInsideHome, pathInside, resolveItemPath } from './safePaths'

/** Where deleted items go, under the data home. */
export const TRASH_FOLDER = 'trash'

/** The record beside a deleted item's files, `item.json`: enough to put the item back by hand. */
export interface TrashRecord {
  kind: 'loomverse.trashed_item'
  format: 1
  deleted: string
  /** The item as it was, with where it stood (`owner`) and its FILE_PATH. */
  item: Item
  /** Names of the files moved in beside this record (the item's file, its summary). */
  files: string[]
  /** Every document version with its text, newest first (the database rows are gone). */
  versions: Array<DocumentVersion & { content: string }>
}

/** A trash folder made ready for one item: `moveIn` brings its files, `undo` puts them back. */
export interface TrashMove {
  /** The folder, relative to the data home (`trash/…`). */
  path: string
  moveIn(): void
  /** Best effort: after a failed delete, the files go back where the item expects them. */
  undo(): void
}

/**
 * Prepares the trash folder for an item: checks every path first (a FILE_PATH that would
 * leave its folder is refused before anything is touched), then makes
 * `trash/YYYYMMDD_HHMMSS_<uuid>/` and writes `item.json`. Moving the files is a separate
 * step so the caller can do it inside the transaction that removes the rows.
 */
export function prepareTrash(
  home: string,
  item: Item,
  versions: Array<DocumentVersion & { content: string }>,
): TrashMove {
  const sources = item.file_path ? existingFiles(home, item.file_path) : []
  const root = join(home, TRASH_FOLDER)
  checkFolderInsideHome(home, root)
  const name = `${timeStamp()}_${randomUUID()}`
  const dir = join(root, name)
  // Not recursive: a folder that already exists is an error, never shared by two items.
  mkdirSync(dir, { mode: 0o700 })
  const record: TrashRecord = {
    kind: 'loomverse.trashed_item',
    format: 1,
    deleted: new Date().toISOString(),
    item,
    files: sources.map((s) => s.name),
    versions,
  }
  try {
    writeFileAtomic(join(dir, 'item.json'), JSON.stringify(record, null, 2))
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }

  const moved: Array<{ from: string; to: string }> = []
  return {
    path: `${TRASH_FOLDER}/${name}`,
    moveIn() {
      for (const source of sources) {
        const to = pathInside(dir, source.name)
        moveFile(source.path, to)
        moved.push({ from: source.path, to })
      }
    },
    undo() {
      try {
        for (const m of moved.splice(0).reverse()) moveFile(m.to, m.from)
        rmSync(dir, { recursive: true, force: true })
      } catch {
        // A file that cannot go back stays in the trash folder with its record: kept, not lost.
      }
    },
  }
}

/** The item's file and its summary, those that exist (a summary may not be written yet). */
function existingFiles(home: string, filePath: string): Array<{ name: string; path: string }> {
  const { folder, name, path } = resolveItemPath(home, filePath)
  const summaryName = summaryFileName(name)
  const candidates = [
    { name, path },
    { name: summaryName, path: pathInside(join(home, folder), summaryName) },
  ]
  return candidates.filter((c) => exists(c.path))
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** A rename; across file systems (a folder mounted inside the home), a copy then a removal. */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e
    copyFileSync(from, to, constants.COPYFILE_EXCL)
    rmSync(from)
  }
}
