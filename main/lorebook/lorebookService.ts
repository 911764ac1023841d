import { randomUUID } from 'node:crypto'
import {
  LoreEntry as LoreEntrySchema,
  type AuthorsNote,
  type LoreBook,
  type LoreBookSettings,
  type LoreBookSummary,
  type LoreEntry,
  type LoreTargetKind,
} from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../db/open'
import { isoNow } from '../kernel/time'
import { DEFAULT_BOOK_SETTINGS, newEntry } from './loreDefaults'
import { compileLore, skippedKeys, type CompiledLore, type EngineBook, type FiredRecord } from './loreEngine'
import { regexKeyProblem } from './loreKeys'
import { LorebookStore, type BookRow } from './lorebookStore'

/** A book read from a file, before it is stored (see formats/). */
export interface ImportedBook {
  name: string
  description: string
  settings: LoreBookSettings
  entries: LoreEntry[]
  extra: Record<string, unknown>
}

/** What a book is attached to, for the context of one prompt. */
export interface LoreScope {
  personaId: string | null
  flowId: string
  storyId?: string | null
}

export interface LorebookDeps {
  db: Db
  /** Whether a persona, conversation or story of this id exists (the owners' services answer). */
  targetExists: (kind: Exclude<LoreTargetKind, 'global'>, id: string) => boolean
}

export const DEFAULT_NOTE: AuthorsNote = { text: '', depth: 4, every: 1, role: 'system' }

/**
 * Lorebooks: their entries, what they are attached to, which of their entries fired at each node,
 * and Author's Notes. The books in play for a prompt come back compiled, kept until one of them
 * changes.
 */
export class LorebookService {
  private readonly store: LorebookStore
  private readonly compiled = new Map<string, CompiledLore>()

  constructor(private readonly deps: LorebookDeps) {
    this.store = new LorebookStore(deps.db)
  }

  list(): LoreBookSummary[] {
    const counts = this.store.entryCounts()
    return this.store.books().map((b) => ({
      id: b.id,
      name: b.name,
      description: b.description,
      attachments: this.store.attachments(b.id),
      updated: b.updated_at,
      entry_count: counts.get(b.id) ?? 0,
    }))
  }

  get(id: string): LoreBook {
    const b = this.row(id)
    const entries = this.store.entries(id)
    const skipped = this.skippedKeys(id, entries)
    return {
      id: b.id,
      name: b.name,
      description: b.description,
      settings: b.settings,
      entries,
      attachments: this.store.attachments(id),
      extra: b.extra,
      created: b.created_at,
      updated: b.updated_at,
      ...(skipped.length > 0 ? { skipped_keys: skipped } : {}),
    }
  }

  create(input: { name: string; description?: string; settings?: Partial<LoreBookSettings> }): LoreBook {
    return this.put({
      name: input.name,
      description: input.description ?? '',
      settings: { ...DEFAULT_BOOK_SETTINGS, ...input.settings },
      entries: [],
      extra: {},
    })
  }

  /** Refuses a book read from `file` that could not be stored whole, naming the file, the entry and field. */
  check(book: ImportedBook, file: string): void {
    book.entries.forEach((e, i) => checkEntry(e, `${file}: entries[${i}]`, 'bad_file'))
    const uids = new Set<number>()
    for (const [i, e] of book.entries.entries()) {
      if (uids.has(e.uid))
        throw new AppError('bad_file', `${file}: entries[${i}].uid: ${e.uid} is used by another entry`)
      uids.add(e.uid)
    }
  }

  /** Stores a whole book in one transaction: every entry checked first, nothing kept of a refused one. */
  importBook(book: ImportedBook, file: string, attachTo?: { kind: LoreTargetKind; target_id: string }): LoreBook {
    this.check(book, file)
    return this.put(book, attachTo)
  }

  private put(book: ImportedBook, attachTo?: { kind: LoreTargetKind; target_id: string }): LoreBook {
    const now = isoNow()
    const id = randomUUID()
    this.deps.db
      .transaction(() => {
        this.store.putBook({ id, ...pick(book), created_at: now, updated_at: now })
        for (const e of book.entries) this.store.putEntry(id, e)
        if (attachTo) this.store.attach(id, attachTo.kind, attachTo.target_id)
      })
      .immediate()
    return this.get(id)
  }

  update(input: { id: string; name?: string; description?: string; settings?: Partial<LoreBookSettings> }): LoreBook {
    const b = this.row(input.id)
    this.store.putBook({
      ...b,
      name: input.name ?? b.name,
      description: input.description ?? b.description,
      settings: { ...b.settings, ...input.settings },
      updated_at: isoNow(),
    })
    return this.changed(input.id)
  }

  delete(id: string): { id: string } {
    this.row(id)
    this.store.deleteBook(id)
    this.compiled.clear()
    return { id }
  }

  createEntry(input: { book_id: string } & Partial<Omit<LoreEntry, 'uid'>>): LoreBook {
    const { book_id, ...fields } = input
    const entries = this.store.entries(this.row(book_id).id)
    const uid = entries.reduce((max, e) => Math.max(max, e.uid + 1), 0)
    const entry = newEntry(uid, fields)
    checkEntry(entry, 'entry')
    this.store.putEntry(book_id, entry)
    return this.changed(book_id)
  }

  updateEntry(input: { book_id: string; uid: number } & Partial<Omit<LoreEntry, 'uid'>>): LoreBook {
    const { book_id, uid, ...fields } = input
    const was = this.store.entries(this.row(book_id).id).find((e) => e.uid === uid)
    if (!was) throw new AppError('not_found', `lorebook ${book_id} has no entry ${uid}`)
    const entry = { ...was, ...fields }
    checkEntry(entry, 'entry')
    this.store.putEntry(book_id, entry)
    return this.changed(book_id)
  }

  deleteEntry(input: { book_id: string; uid: number }): LoreBook {
    this.row(input.book_id)
    if (!this.store.deleteEntry(input.book_id, input.uid))
      throw new AppError('not_found', `lorebook ${input.book_id} has no entry ${input.uid}`)
    return this.changed(input.book_id)
  }

  attach(input: { book_id: string; kind: LoreTargetKind; target_id: string }): LoreBook {
    this.row(input.book_id)
    if (input.kind === 'global') {
      if (input.target_id !== '')
        throw new AppError('bad_input', 'target_id: a global attachment takes an empty target_id')
    } else if (!this.deps.targetExists(input.kind, input.target_id)) {
      throw new AppError('not_found', `target_id: no ${input.kind} ${input.target_id}`)
    }
    this.store.attach(input.book_id, input.kind, input.target_id)
    return this.changed(input.book_id)
  }

  detach(input: { book_id: string; kind: LoreTargetKind; target_id: string }): LoreBook {
    this.row(input.book_id)
    this.store.detach(input.book_id, input.kind, input.target_id)
    return this.changed(input.book_id)
  }

  /** The books in play for a prompt: global ones, the persona's, the conversation's and the story's. */
  booksFor(scope: LoreScope): EngineBook[] {
    const targets: { kind: LoreTargetKind; id: string }[] = [
      { kind: 'global', id: '' },
      { kind: 'flow', id: scope.flowId },
    ]
    if (scope.personaId) targets.push({ kind: 'persona', id: scope.personaId })
    if (scope.storyId) targets.push({ kind: 'story', id: scope.storyId })
    return this.store.booksAttached(targets).map((id) => {
      const b = this.row(id)
      return { id, name: b.name, settings: b.settings, entries: this.store.entries(id), updated: b.updated_at }
    })
  }

  /**
   * The books compiled, kept by their ids and versions: compiling 10,000 entries takes a few
   * hundred milliseconds, a turn's matching a few (bench/lorebook).
   */
  compile(books: readonly (EngineBook & { updated?: string })[]): CompiledLore {
    const key = books.map((b) => `${b.id}@${b.updated ?? ''}`).join('|')
    let c = this.compiled.get(key)
    if (!c) {
      if (this.compiled.size >= 16) this.compiled.clear()
      this.compiled.set(key, (c = compileLore(books)))
    }
    return c
  }

  /**
   * The keys of a book's entries that a compiling of it in play left out for taking too long,
   * those the entries still have (an edited key is tried afresh).
   */
  private skippedKeys(bookId: string, current: readonly LoreEntry[]): Array<{ uid: number; key: string }> {
    const out = new Map<string, { uid: number; key: string }>()
    const entries = new Map(current.map((e) => [e.uid, e]))
    for (const c of this.compiled.values())
      for (const { uid, key } of skippedKeys(c, bookId)) {
        const entry = entries.get(uid)
        if (entry && (entry.keys.includes(key) || entry.secondary_keys.includes(key)))
          out.set(`${uid}\0${key}`, { uid, key })
      }
    return [...out.values()]
  }

  recordFired(nodeId: string, fired: readonly FiredRecord[]): void {
    this.store.recordFired(nodeId, fired)
  }

  /** What fired at these nodes, in the order given. */
  firedAt(nodeIds: readonly string[]): FiredRecord[][] {
    return nodeIds.map((id) => this.store.fired(id))
  }

  /** A conversation's note, else its persona's; a persona's own. */
  note(kind: 'persona' | 'flow', targetId: string, personaId: string | null = null) {
    const found = this.store.noteOrPersonas(kind, targetId, kind === 'flow' ? personaId : null)
    if (!found) return { ...DEFAULT_NOTE, from: 'none' as const }
    return { ...found.note, from: found.own ? ('own' as const) : ('persona' as const) }
  }

  setNote(kind: 'persona' | 'flow', targetId: string, note: AuthorsNote): AuthorsNote {
    if (!this.deps.targetExists(kind, targetId)) throw new AppError('not_found', `target_id: no ${kind} ${targetId}`)
    if (kind === 'flow' && !note.text.trim()) this.store.deleteNote(kind, targetId)
    else this.store.putNote(kind, targetId, note)
    return note
  }

  private row(id: string): BookRow {
    const b = this.store.book(id)
    if (!b) throw new AppError('not_found', `no lorebook ${id}`)
    return b
  }

  private changed(id: string): LoreBook {
    this.store.touch(id, isoNow())
    return this.get(id)
  }
}

function pick(b: ImportedBook): Omit<BookRow, 'id' | 'created_at' | 'updated_at'> {
  return { name: b.name, description: b.description, settings: b.settings, extra: b.extra }
}

/** Refuses an entry the engine could not use, naming the field: a key that is a broken regular expression. */
function checkEntry(e: LoreEntry, where: string, code: 'bad_input' | 'bad_file' = 'bad_input'): void {
  const parsed = LoreEntrySchema.safeParse(e)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new AppError(code, `${where}.${issue.path.join('.')}: ${issue.message}`)
  }
  for (const [list, keys] of [
    ['keys', e.keys],
    ['secondary_keys', e.secondary_keys],
  ] as const) {
    keys.forEach((key, i) => {
      const problem = regexKeyProblem(key)
      if (problem) throw new AppError(code, `${where}.${list}[${i}]: not a regular expression: ${problem}`)
    })
  }
}
