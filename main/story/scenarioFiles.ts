import { createHash } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, realpathSync, type Stats } from 'node:fs'
import { basename, dirname, join, posix, relative, sep } from 'node:path'
import { StorySettings, type StoryFile } from '@shared/contract'
import { AppError } from '@shared/errors'
import { appendRegularFile } from '../kernel/appendFile'
import { writeFileAtomic } from '../kernel/atomicWrite'
import { readImportFileSync } from '../kernel/importFile'
import { ImportFileError } from '../kernel/importFileError'

/** The seed's project layout (F-001): folders made for every project. */
export const PROJECT_FOLDERS = [
  'scenario/characters',
  'scenario/prompts',
  'logs/autosaves',
  'logs/archives',
  'logs/transcripts',
  'exports',
  'summaries',
] as const

/**
 * The most a project file the app reads may hold: 4 MiB, about a million tokens of English or
 * 1.4 million Japanese characters, as much as the largest models take at once, so no scenario a model
 * could use is refused. Every scenario file is read, counted and sent on every turn: a 300 MB
 * world setting aborted the process (no string that long) and 150 MB froze it for 11 s.
 */
export const STORY_FILE_MAX_BYTES = 4 * 1024 * 1024

export const SETTINGS_FILE = '.storygamesetting.json'
export const SCENARIO = {
  world: 'scenario/00_world_setting.md',
  player: 'scenario/01_player_character.md',
  rules: 'scenario/02_ai_rules.md',
  opening: 'scenario/03_opening_scene.md',
  characters: 'scenario/characters',
  prompts: 'scenario/prompts',
  /** The story's lorebook: one Markdown file an entry (lorebook/formats/markdownBook.ts). */
  lorebook: 'scenario/lorebook',
} as const

export type PromptName = 'summarization' | 'character_update' | 'character_generation' | 'log_digest'
export const promptPath = (name: PromptName) => `${SCENARIO.prompts}/${name}_prompt.md`

export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * The files of one scenario project. Every path it takes is relative to the project and is
 * checked to stay inside it: no `..`, no absolute path, and no symbolic link anywhere on the
 * way, so nothing outside the project is ever read or written through it.
 */
export class ScenarioFiles {
  constructor(readonly root: string) {}

  /** Every Markdown file under `scenario/`, sorted by path. */
  list(): StoryFile[] {
    const files: StoryFile[] = []
    const walk = (rel: string) => {
      for (const entry of readdirSync(join(this.root, rel), { withFileTypes: true })) {
        const child = posix.join(rel, entry.name)
        if (entry.isDirectory()) walk(child)
        else if (entry.isFile() && entry.name.endsWith('.md')) files.push(this.describeOrUnread(child))
      }
    }
    if (this.isFolder('scenario')) walk('scenario')
    return files.sort((a, b) => a.path.localeCompare(b.path))
  }

  describe(rel: string): StoryFile {
    const content = this.read(rel)
    const info = lstatSync(this.resolve(rel))
    return {
      path: rel,
      hash: contentHash(content),
      size: Buffer.byteLength(content, 'utf8'),
      modified_at: info.mtime.toISOString(),
    }
  }

  /**
   * A file the app cannot read (over the limit, not UTF-8) is still listed, with its size and
   * no hash, so the story opens and the editor can say what is wrong with it.
   */
  private describeOrUnread(rel: string): StoryFile {
    try {
      return this.describe(rel)
    } catch (e) {
      if (!(e instanceof ImportFileError)) throw e
      const info = lstatSync(this.resolve(rel))
      return { path: rel, hash: '', size: info.size, modified_at: info.mtime.toISOString() }
    }
  }

  /** A file's text; `not_found` when it does not exist. */
  read(rel: string): string {
    const text = this.readOrNull(rel)
    if (text === null) throw new AppError('not_found', `${rel} does not exist in this story`)
    return text
  }

  /**
   * A file's text, or null when nothing is there. Read as an import is (kernel/importFile.ts):
   * a regular file only, never through a link, opened without waiting (a FIFO would block the
   * event loop), its size checked against STORY_FILE_MAX_BYTES before a byte is read, and its
   * text valid UTF-8 — or `bad_file` naming the file (and line) and what is wrong.
   */
  readOrNull(rel: string): string | null {
    const path = this.resolve(rel)
    if (!lstatOrNull(path)) return null
    return readImportFileSync(path, { name: this.nameOf(rel), maxBytes: STORY_FILE_MAX_BYTES })
  }

  /** Writes the whole file or nothing, making its folder inside the project if needed. */
  write(rel: string, content: string): StoryFile {
    const path = this.resolve(rel)
    mkdirSync(dirname(path), { recursive: true })
    this.resolve(rel) // the folder just made must not be a link either
    writeFileAtomic(path, content)
    return this.describe(rel)
  }

  /**
   * Adds to the end of a file (a transcript), making it and its folder inside the project if
   * needed. Only a regular file is appended to: a FIFO or a device there is refused at once.
   */
  append(rel: string, content: string): void {
    const path = this.resolve(rel)
    mkdirSync(dirname(path), { recursive: true })
    appendRegularFile(this.resolve(rel), content, this.nameOf(rel))
  }

  /**
   * A folder of the project the app writes into (`logs/archives`), made if missing. Checked
   * before the work it receives is done, so a link there refuses the work with the reason
   * instead of the work being done and its file then refused.
   */
  requireFolder(rel: string): void {
    const path = this.resolve(rel)
    mkdirSync(path, { recursive: true })
    this.resolve(rel) // what mkdir made (or found) must not be a link either
    if (!lstatOrNull(path)?.isDirectory())
      throw new AppError('bad_input', `${this.nameOf(rel)} is not a folder: move it away so the app can make one`)
  }

  /** A file as the user knows it: the story's folder and the path inside it. */
  nameOf(rel: string): string {
    return `${basename(this.root)}/${rel}`
  }

  /** The project's settings file, with the seed's defaults for anything missing or unreadable. */
  settings(): StorySettings {
    const text = this.readOrNull(SETTINGS_FILE)
    if (text === null) return StorySettings.parse({})
    try {
      const parsed = StorySettings.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data : StorySettings.parse({})
    } catch {
      return StorySettings.parse({})
    }
  }

  /** Character sheet file names, sorted. */
  characters(): string[] {
    return this.markdownIn(SCENARIO.characters)
  }

  /** The lorebook's entry files, sorted. */
  lorebook(): string[] {
    return this.markdownIn(SCENARIO.lorebook)
  }

  private markdownIn(folder: string): string[] {
    if (!this.isFolder(folder)) return []
    return readdirSync(join(this.root, folder), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.md'))
      .map((e) => e.name)
      .sort()
  }

  /**
   * An absolute path for a project-relative one, refused when it would leave the project: an
   * absolute path, `..`, a backslash, or a symbolic link on the way.
   */
  resolve(rel: string): string {
    const normal = posix.normalize(rel)
    if (rel.includes('\\') || rel.includes('\0') || posix.isAbsolute(rel) || normal.startsWith('..') || normal !== rel)
      throw new AppError('bad_input', `"${rel}" is not a path inside the story`)
    let at = this.root
    for (const segment of normal.split('/')) {
      at = join(at, segment)
      if (lstatOrNull(at)?.isSymbolicLink())
        throw new AppError(
          'forbidden',
          `"${rel}" goes through a link (${relative(this.root, at).split(sep).join('/')}): the app reads and writes only inside the story's folder; replace the link with a folder or file`,
        )
    }
    let root: string
    try {
      root = realpathSync(this.root)
    } catch {
      throw new AppError('not_found', `the story's folder ${posix.basename(this.root)} is missing from scenarios/`)
    }
    const real = relative(root, join(root, normal))
    if (real.startsWith('..') || real.split(sep).includes('..'))
      throw new AppError('bad_input', `"${rel}" is not a path inside the story`)
    return at
  }

  private isFolder(rel: string): boolean {
    return lstatOrNull(this.resolve(rel))?.isDirectory() ?? false
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}
