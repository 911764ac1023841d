import type { LoreEntry } from '@shared/contract'
import { parse } from 'yaml'
import { DEFAULT_BOOK_SETTINGS, newEntry } from '../loreDefaults'
import type { EngineBook } from '../loreEngine'

// A story's lorebook in the seed's Markdown-first spirit: `scenario/lorebook/<name>.md`, one
// entry a file, the body its text. With no front matter the file's name is its key
// ("Eldoria.md" fires on "Eldoria"); YAML front matter may set keys and SillyTavern's options:
//
//   ---
//   keys: [Eldoria, the old kingdom]
//   secondary_keys: [crown]
//   position: at_depth
//   depth: 2
//   sticky: 2
//   ---
//   Eldoria is a fallen kingdom of the north.

const OPTIONS = [
  'secondary_keys',
  'selective_logic',
  'constant',
  'position',
  'depth',
  'order',
  'probability',
  'group',
  'sticky',
  'cooldown',
  'delay',
  'case_sensitive',
  'match_whole_words',
] as const satisfies ReadonlyArray<keyof LoreEntry>

const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',').map((k) => k.trim()) : []

/** One file as an entry; front matter that is not YAML leaves the whole file as its text. */
export function markdownEntry(file: string, text: string, uid: number): LoreEntry {
  const title = file.replace(/\.md$/i, '')
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text)
  let meta: Record<string, unknown> = {}
  let body = text
  if (m) {
    try {
      const parsed: unknown = parse(m[1]!)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        meta = parsed as Record<string, unknown>
        body = m[2]!
      }
    } catch {
      // Not YAML: the file is all text.
    }
  }
  const keys = list(meta.keys).filter(Boolean)
  const options = Object.fromEntries(OPTIONS.filter((k) => meta[k] !== undefined).map((k) => [k, meta[k]]))
  if (options.secondary_keys !== undefined) options.secondary_keys = list(options.secondary_keys)
  return newEntry(uid, {
    ...options,
    comment: title,
    keys: keys.length > 0 ? keys : [title],
    content: body.trim(),
  })
}

/** The folder's files (name, text) as one book, kept by `version` (a hash of the files). */
export function markdownBook(id: string, name: string, files: ReadonlyArray<[string, string]>, version: string) {
  const book: EngineBook & { updated: string } = {
    id,
    name,
    settings: { ...DEFAULT_BOOK_SETTINGS },
    entries: files.map(([file, text], i) => markdownEntry(file, text, i)),
    updated: version,
  }
  return book
}
