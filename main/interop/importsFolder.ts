import { appendFileSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '@shared/errors'
import { guessImportFile, type ImportKind } from '../kernel/importGuess'

/** What a window may put into imports/ in all (a big ChatGPT export is a few hundred MB). */
const MAX_UPLOAD = 1024 * 1024 * 1024
const PART = (name: string) => `.upload-${name}`

/**
 * The data folder's imports/: where a window puts a file before importing it (a window never
 * names a path outside it). A file arrives in pieces, each appended at the offset the window
 * says; a piece at the wrong offset is refused, so a retried or reordered piece cannot corrupt it.
 */
export class ImportsFolder {
  constructor(private readonly dir: string) {}

  upload(input: { name: string; offset: number; data_base64: string; final: boolean }): { name: string; size: number } {
    const name = plainName(input.name)
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    const part = join(this.dir, PART(name))
    if (input.offset === 0) rmSync(part, { force: true })
    const size = existsSync(part) ? lstatSync(part).size : 0
    if (input.offset !== size)
      throw new AppError(
        'conflict',
        `${name}: expected the piece at byte ${size}, got one at ${input.offset}; start again`,
      )
    const bytes = Buffer.from(input.data_base64, 'base64')
    if (size + bytes.length > MAX_UPLOAD) {
      rmSync(part, { force: true })
      throw new AppError(
        'bad_input',
        `${name}: larger than ${MAX_UPLOAD / 1024 ** 3} GB; copy it into the imports folder instead`,
      )
    }
    appendFileSync(part, bytes, { mode: 0o600 })
    if (!input.final) return { name, size: size + bytes.length }
    const final = freeName(this.dir, name)
    renameSync(part, join(this.dir, final))
    return { name: final, size: size + bytes.length }
  }

  /**
   * What imports/ holds, newest first, with a guess of what each is from its content (the
   * dialog offers the matching import): a card saved as `.json` is a card, not a chat log.
   */
  list(): Array<{ name: string; size: number; modified_at: string; kind: ImportKind }> {
    if (!existsSync(this.dir)) return []
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.') && (e.isFile() || e.isDirectory()))
      .map((e) => {
        const info = statSync(join(this.dir, e.name))
        return {
          name: e.name,
          size: e.isFile() ? info.size : 0,
          modified_at: info.mtime.toISOString(),
          kind: e.isDirectory() ? folderKind(join(this.dir, e.name)) : guessImportFile(join(this.dir, e.name), e.name),
        }
      })
      .sort((a, b) => b.modified_at.localeCompare(a.modified_at))
  }
}

/** One file name, nothing that walks out of the folder or hides in it. */
function plainName(name: string): string {
  // eslint-disable-next-line no-control-regex
  if (!name || name.startsWith('.') || /[\\/:*?"<>|\u0000-\u001f]/.test(name) || name.length > 200)
    throw new AppError('bad_input', `"${name}" is not a plain file name`)
  return name
}

/** `name`, or `name (2).ext`… when a file of that name is there already: an upload never replaces one. */
function freeName(dir: string, name: string): string {
  if (!existsSync(join(dir, name))) return name
  const dot = name.lastIndexOf('.')
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  for (let i = 2; ; i++) if (!existsSync(join(dir, `${stem} (${i})${ext}`))) return `${stem} (${i})${ext}`
}

function folderKind(dir: string): ImportKind {
  return existsSync(join(dir, 'nodes')) || existsSync(join(dir, 'flows')) ? 'vizprompt' : 'unknown'
}
