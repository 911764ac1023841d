import { lstatSync, mkdirSync, realpathSync } from 'node:fs'
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { TRASH_ID } from '@shared/contract'
import { AppError } from '@shared/errors'
import { isInside } from '../../kernel/isInside'
import { ITEM_FILE_NAME } from './itemFileName'

/** The two folders item files live in, as stored in FILE_PATH (relative to the data home). */
export type ItemFolder = 'image' | 'documents'

/**
 * The absolute path of `name` inside `dir`, refusing anything that could land elsewhere:
 * separators, `..`, names we never write, and symlinks (the folder itself must resolve
 * inside the home, and an existing file must be a regular file, not a link).
 */
export function pathInside(dir: string, name: string): string {
  if (name !== basename(name) || name.includes('/') || name.includes('\\') || !ITEM_FILE_NAME.test(name)) {
    throw new AppError('forbidden', `"${name}" is not an item file name`)
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const realDir = realpathSync(dir)
  const target = resolve(realDir, name)
  const rel = relative(realDir, target)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.includes(sep)) {
    throw new AppError('forbidden', `"${name}" would leave ${dir}`)
  }
  try {
    if (lstatSync(target).isSymbolicLink()) throw new AppError('forbidden', `"${name}" is a symbolic link`)
  } catch (e) {
    if (e instanceof AppError) throw e
    // Not there yet: fine for a file about to be written.
  }
  return target
}

/** `image/<name>` → absolute path under `home`, checked the same way. */
export function resolveItemPath(home: string, filePath: string): { folder: ItemFolder; name: string; path: string } {
  const match = /^(image|documents)\/([^/\\]+)$/.exec(filePath)
  if (!match) throw new AppError('forbidden', `FILE_PATH "${filePath}" is not inside image/ or documents/`)
  const folder = match[1] as ItemFolder
  const name = match[2]!
  const dir = join(home, folder)
  checkFolderInsideHome(home, dir)
  return { folder, name, path: pathInside(dir, name) }
}

/** A folder swapped for a symlink pointing out of the home is refused, not followed. */
export function checkFolderInsideHome(home: string, dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!isInside(realpathSync(dir), realpathSync(home)))
    throw new AppError('forbidden', `${dir} points outside the data folder`)
}

/**
 * A trash id → its folder under `trashDir`. Only the folder-name shape is accepted, so no id
 * can climb out; the folder must be a real folder (a symlink put there is refused, not followed).
 */
export function resolveTrashFolder(home: string, trashDir: string, trashId: string): string {
  if (!TRASH_ID.test(trashId))
    throw new AppError('bad_input', `"${trashId}" is not a trash id (YYYYMMDD_HHMMSS_<uuid>)`)
  checkFolderInsideHome(home, trashDir)
  const dir = join(realpathSync(trashDir), trashId)
  let isFolder: boolean
  try {
    isFolder = lstatSync(dir).isDirectory()
  } catch {
    throw new AppError('not_found', `trash ${trashId} not found`)
  }
  if (!isFolder) throw new AppError('forbidden', `trash/${trashId} is not a folder`)
  return dir
}
