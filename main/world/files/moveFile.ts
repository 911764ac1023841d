import { copyFileSync, constants, lstatSync, renameSync, rmSync } from 'node:fs'

/** Whether anything (file, folder, link) stands at `path`; a dangling link counts as taken. */
export function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

/** A rename; across file systems (a folder mounted inside the home), a copy then a removal. */
export function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e
    copyFileSync(from, to, constants.COPYFILE_EXCL)
    rmSync(from)
  }
}
