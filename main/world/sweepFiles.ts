import { lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '../db/open'
import type { HomePaths } from '../kernel/home'
import { TEMP_FILE } from '../kernel/atomicWrite'
import { ITEM_FILE_NAME, timeStamp } from './files/itemFileName'
import { exists, moveFile } from './files/moveFile'
import { checkFolderInsideHome } from './files/safePaths'

const ITEM_FOLDERS = ['image', 'documents'] as const

export interface SweepResult {
  /** Temp files removed, relative to the home. */
  temps: string[]
  /** Item files no item refers to, moved to `orphans`. */
  orphans: string[]
  /** The trash folder they went to, relative to the home; null when there were none. */
  orphansFolder: string | null
}

/**
 * What a crash leaves in the home's own folders: temp files of an atomic write (removed)
 * and item files written before their item's row was committed (moved to
 * `trash/orphans_<time>/`, not deleted: the user may still want them). Only names the app
 * gives its files are touched, only inside image/, documents/ and trash/, and never a link.
 */
export function sweepFiles(db: Db, paths: HomePaths): SweepResult {
  const result: SweepResult = { temps: [], orphans: [], orphansFolder: null }
  const referenced = new Set(
    (db.prepare('SELECT FILE_PATH FROM item WHERE FILE_PATH IS NOT NULL').pluck().all() as string[]).map(String),
  )
  for (const folder of ITEM_FOLDERS) {
    const dir = join(paths.home, folder)
    if (!exists(dir)) continue
    checkFolderInsideHome(paths.home, dir)
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (!isPlainFile(path)) continue
      if (TEMP_FILE.test(name)) {
        rmSync(path)
        result.temps.push(`${folder}/${name}`)
      } else if (ITEM_FILE_NAME.test(name) && !referenced.has(`${folder}/${name.replace(/\.summary\.txt$/, '')}`)) {
        result.orphansFolder ??= orphansFolder(paths)
        moveFile(path, join(paths.home, result.orphansFolder, name))
        result.orphans.push(`${folder}/${name}`)
      }
    }
  }
  // A trash folder's item.json is written atomically too.
  if (exists(paths.trash)) {
    checkFolderInsideHome(paths.home, paths.trash)
    for (const entry of readdirSync(paths.trash, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      for (const name of readdirSync(join(paths.trash, entry.name))) {
        const path = join(paths.trash, entry.name, name)
        if (TEMP_FILE.test(name) && isPlainFile(path)) {
          rmSync(path)
          result.temps.push(`trash/${entry.name}/${name}`)
        }
      }
    }
  }
  return result
}

function isPlainFile(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isFile() ?? false
}

/** `trash/orphans_<time>/`: a name the trash list passes over (it is no deleted item). */
function orphansFolder(paths: HomePaths): string {
  checkFolderInsideHome(paths.home, paths.trash)
  let name = `orphans_${timeStamp()}`
  for (let n = 2; exists(join(paths.trash, name)); n++) name = `orphans_${timeStamp()}_${n}`
  mkdirSync(join(paths.trash, name), { mode: 0o700 })
  return `trash/${name}`
}
