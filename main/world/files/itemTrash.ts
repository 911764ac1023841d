import { randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { z } from 'zod'
import { DocumentVersion, Item } from '@shared/contract'
import type { HomePaths } from '../../kernel/home'
import { writeFileAtomic } from '../../kernel/atomicWrite'
import { summaryFileName, timeStamp } from './itemFileName'
import { exists, moveFile } from './moveFile'
import { checkFolderInsideHome, pathInside, resolveItemPath } from './safePaths'

/** The record's own name inside each trash folder. */
export const TRASH_RECORD = 'item.json'

/**
 * The record beside a deleted item's files, `item.json`: enough to put the item back (by
 * hand or with item_restore). A schema rather than a bare type, because the file is read
 * back and may have been edited or damaged in between.
 */
export const TrashRecord = z.object({
  kind: z.literal('loomverse.trashed_item'),
  format: z.literal(1),
  /** When it was deleted, ISO 8601. */
  deleted: z.string(),
  /**
   * The item as it was, with where it stood (`owner`) and its FILE_PATH. Records written before
   * items had a summary of their own have none: they still restore.
   */
  item: Item.extend({ summary: z.string().nullable().default(null) }),
  /** Names of the files moved in beside this record (the item's file, its summary). */
  files: z.array(z.string()),
  /** Every document version with its text, newest first (the database rows are gone). */
  versions: z.array(DocumentVersion.extend({ content: z.string() })),
})
export type TrashRecord = z.infer<typeof TrashRecord>

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
  paths: Pick<HomePaths, 'home' | 'trash'>,
  item: Item,
  versions: Array<DocumentVersion & { content: string }>,
): TrashMove {
  const { home, trash } = paths
  const sources = item.file_path ? existingFiles(home, item.file_path) : []
  checkFolderInsideHome(home, trash)
  const name = `${timeStamp()}_${randomUUID()}`
  const dir = join(trash, name)
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
    writeFileAtomic(join(dir, TRASH_RECORD), JSON.stringify(record, null, 2))
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }

  const moved: Array<{ from: string; to: string }> = []
  return {
    path: relative(home, dir).split(sep).join('/'),
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
