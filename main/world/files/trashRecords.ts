import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { TRASH_ID } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { HomePaths } from '../../kernel/home'
import { TRASH_RECORD, TrashRecord } from './itemTrash'
import { exists } from './moveFile'
import { checkFolderInsideHome, resolveTrashFolder } from './safePaths'

/** One trash folder and the record read from it. */
export interface TrashedItem {
  trashId: string
  /** Absolute path of the folder. */
  dir: string
  record: TrashRecord
}

type TrashPaths = Pick<HomePaths, 'home' | 'trash'>

/** The folder a trash id names, with its record; refused clearly when either is missing or unreadable. */
export function openTrash(paths: TrashPaths, trashId: string): TrashedItem {
  const dir = resolveTrashFolder(paths.home, paths.trash, trashId)
  try {
    return { trashId, dir, record: readRecord(dir) }
  } catch (e) {
    throw new AppError(
      'conflict',
      `trash/${trashId}/${TRASH_RECORD} cannot be read, so nothing was restored: ${reason(e)}`,
      { key: 'trash_unreadable', params: { error: reason(e) } },
    )
  }
}

/**
 * Every trash folder whose record reads, newest first. One damaged or hand-edited folder
 * must not hide the others: it is logged and left out. Names of any other shape (temp
 * files, a folder being retired by a restore) are not trash entries and are passed over.
 */
export function listTrashed(paths: TrashPaths, log: (message: string) => void): TrashedItem[] {
  if (!exists(paths.trash)) return []
  checkFolderInsideHome(paths.home, paths.trash)
  const root = realpathSync(paths.trash)
  const found: TrashedItem[] = []
  for (const trashId of readdirSync(root)) {
    if (!TRASH_ID.test(trashId)) continue
    const dir = join(root, trashId)
    try {
      if (!lstatSync(dir).isDirectory()) throw new Error('not a folder')
      found.push({ trashId, dir, record: readRecord(dir) })
    } catch (e) {
      log(`[trash] skipped trash/${trashId}: ${reason(e)}`)
    }
  }
  return found.sort((a, b) => newestFirst(a.record.deleted, b.record.deleted) || newestFirst(a.trashId, b.trashId))
}

/** ISO times and trash ids both sort by time as plain strings (no locale rules). */
function newestFirst(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0
}

function readRecord(dir: string): TrashRecord {
  const path = join(dir, TRASH_RECORD)
  // A link named item.json could point anywhere; only a plain file is read.
  const stat = lstatSync(path, { throwIfNoEntry: false })
  if (!stat) throw new Error(`${TRASH_RECORD} is missing`)
  if (!stat.isFile()) throw new Error(`${TRASH_RECORD} is not a plain file`)
  const parsed = TrashRecord.safeParse(JSON.parse(readFileSync(path, 'utf8')))
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))
  return parsed.data
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
