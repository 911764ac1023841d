import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { HomePaths } from '../kernel/home'
import { exists } from '../world/files/moveFile'
import { checkFolderInsideHome } from '../world/files/safePaths'
import { TEMP_FILE } from '../kernel/atomicWrite'

/** Folders below a project walked for temp files: the seed's layout is three deep; a user's may be deeper. */
const MAX_DEPTH = 8

/**
 * What a kill during story work leaves in `scenarios/`: createProject's temp folder
 * (`scenarios/.tmp-<uuid>/`, a project being made, moved into place only when whole) and
 * writeFileAtomic's temp files (`.tmp-<uuid>`) beside any file a story writes — saves in
 * logs/archives/, the autosave, sheets, the summary mirror. Both are removed: neither was
 * ever a file the user had. Only those exact names are touched, and nothing is followed
 * through a link (a `.tmp-` link is left, and so is whatever it points at). Returns what was
 * removed, relative to the home.
 */
export function sweepStoryTemps(paths: HomePaths): string[] {
  const removed: string[] = []
  if (!exists(paths.scenarios)) return removed
  checkFolderInsideHome(paths.home, paths.scenarios)
  for (const entry of readdirSync(paths.scenarios, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue // a Dirent from readdir is the entry itself: a link is no folder
    const path = join(paths.scenarios, entry.name)
    if (TEMP_FILE.test(entry.name)) {
      rmSync(path, { recursive: true }) // rm removes links inside, never what they point at
      removed.push(`scenarios/${entry.name}`)
    } else sweepFolder(path, `scenarios/${entry.name}`, MAX_DEPTH, removed)
  }
  return removed
}

function sweepFolder(dir: string, rel: string, depth: number, removed: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isFile() && TEMP_FILE.test(entry.name)) {
      rmSync(path)
      removed.push(`${rel}/${entry.name}`)
    } else if (entry.isDirectory() && depth > 0) sweepFolder(path, `${rel}/${entry.name}`, depth - 1, removed)
  }
}
