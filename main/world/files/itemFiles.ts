import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../../kernel/atomicWrite'
import { itemFileName, summaryFileName } from './itemFileName'
import { pathInside, resolveItemPath, type ItemFolder } from './safePaths'

/**
 * Item files under the data home: `image/` and `documents/`, named by the seed's rule,
 * written atomically, read back only from inside their folder. FILE_PATH stores the path
 * relative to the home (`documents/…`), so a data folder can move or live in git.
 */
export class ItemFiles {
  constructor(private readonly home: string) {}

  /** Writes a new file and returns its FILE_PATH. */
  create(folder: ItemFolder, ext: string, data: string | Uint8Array): string {
    const name = itemFileName(ext)
    writeFileAtomic(pathInside(join(this.home, folder), name), data)
    return `${folder}/${name}`
  }

  /** Replaces a file's content whole (a new document version). */
  replace(filePath: string, data: string): void {
    writeFileAtomic(resolveItemPath(this.home, filePath).path, data)
  }

  readText(filePath: string): string {
    return readFileSync(resolveItemPath(this.home, filePath).path, 'utf8')
  }

  readBytes(filePath: string): Buffer {
    return readFileSync(resolveItemPath(this.home, filePath).path)
  }

  /** The summary beside the file: `<file>.summary.txt`. */
  writeSummary(filePath: string, summary: string): void {
    const { folder, name } = resolveItemPath(this.home, filePath)
    writeFileAtomic(pathInside(join(this.home, folder), summaryFileName(name)), summary)
  }

  readSummary(filePath: string): string | null {
    const { folder, name } = resolveItemPath(this.home, filePath)
    try {
      return readFileSync(pathInside(join(this.home, folder), summaryFileName(name)), 'utf8')
    } catch {
      return null
    }
  }
}
