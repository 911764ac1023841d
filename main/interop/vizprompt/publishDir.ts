import { lstat, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { AppError } from '@shared/errors'
import { makeFolders, writeFiles } from './fileWriter'
import { CONFIG_FILE, FLOWS_DIR, MANAGED_ENTRIES, NODES_DIR, NODE_MAP_FILE } from './layout'

export interface ExportFile {
  /** Relative to the export folder, with forward slashes. */
  path: string
  content: string
}

/**
 * Writes an export without ever leaving a half-written one in `outDir`: everything goes
 * into a staging folder beside it first, then each top-level entry (nodes/, flows/,
 * metadata/, config.yaml) is swapped in by a rename. Other entries, such as the `.git` of
 * an export kept under version control, stay. A folder holding anything but a previous
 * export is refused rather than mixed into.
 *
 * `files` may be a generator: each file is rendered just before it is handed to the writer
 * thread, so rendering and writing overlap.
 */
export async function publishExport(outDir: string, files: Iterable<ExportFile>): Promise<void> {
  await checkTarget(outDir)
  const parent = dirname(outDir)
  await mkdir(parent, { recursive: true })
  const staging = await mkdtemp(join(parent, `.${basename(outDir)}.new-`))
  try {
    await writeAll(staging, files)
    await mkdir(outDir, { recursive: true })
    await swapIn(staging, outDir)
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function checkTarget(outDir: string): Promise<void> {
  const stat = await lstat(outDir).catch(() => null)
  if (!stat) return
  if (!stat.isDirectory())
    throw new AppError('conflict', `${outDir} exists and is not a folder`, {
      key: 'export_folder_not_folder',
      params: { folder: outDir },
    })
  const entries = await readdir(outDir)
  if (entries.length === 0 || (await isExport(outDir))) return
  throw new AppError(
    'conflict',
    `${outDir} is not empty and holds no VizPrompt export; choose an empty or new folder so nothing else is overwritten`,
    { key: 'export_folder_not_empty', params: { folder: outDir } },
  )
}

async function isExport(dir: string): Promise<boolean> {
  const found = await Promise.all([CONFIG_FILE, NODE_MAP_FILE].map((f) => lstat(join(dir, f)).catch(() => null)))
  return found.every((s) => s?.isFile())
}

async function writeAll(root: string, files: Iterable<ExportFile>): Promise<void> {
  // An export of nothing still has both folders.
  makeFolders(root, [NODES_DIR, FLOWS_DIR])
  await writeFiles(root, files)
}

async function swapIn(staging: string, outDir: string): Promise<void> {
  const trash = await mkdtemp(join(dirname(outDir), `.${basename(outDir)}.old-`))
  try {
    for (const entry of MANAGED_ENTRIES) {
      const target = join(outDir, entry)
      const hadOld = (await lstat(target).catch(() => null)) !== null
      if (hadOld) await rename(target, join(trash, entry))
      try {
        await rename(join(staging, entry), target)
      } catch (e) {
        // Put the previous version back rather than leave the entry missing.
        if (hadOld) await rename(join(trash, entry), target)
        throw e
      }
    }
  } finally {
    await rm(trash, { recursive: true, force: true })
  }
}
