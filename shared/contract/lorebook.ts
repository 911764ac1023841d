import { z } from 'zod'
import { DisplayName } from './names'
import type { MethodSpecs } from './spec'

const Id = z.string().uuid()

/**
 * Where a fired entry's text goes: SillyTavern's World Info positions 0–7 in its order. Before or
 * after the persona text; at the top or bottom of the Author's Note; among the messages at a
 * depth; before or after the example dialogue (a card's examples are part of the persona text
 * here, so both go after it and after `after_persona`, top first); or an outlet, put only where
 * a text writes `{{outlet::name}}` (the entry's `extra.outletName`).
 */
export const LorePosition = z.enum([
  'before_persona',
  'after_persona',
  'an_top',
  'an_bottom',
  'at_depth',
  'em_top',
  'em_bottom',
  'outlet',
])
export type LorePosition = z.infer<typeof LorePosition>

/** How secondary keys gate an entry whose primary key matched (SillyTavern's selectiveLogic 0–3). */
export const SelectiveLogic = z.enum(['and_any', 'not_all', 'not_any', 'and_all'])
export type SelectiveLogic = z.infer<typeof SelectiveLogic>

const Key = z.string().min(1).max(1_000)
const Turns = z.number().int().min(0).max(10_000)

/**
 * One World Info entry. A key written `/pattern/flags` is a regular expression; any other key is
 * plain text, found by one automaton over every plain key of the books in play. Null options
 * take the book's.
 */
export const LoreEntry = z.object({
  /** Unique in its book; SillyTavern's `uid`. */
  uid: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31),
  keys: z.array(Key).max(200),
  secondary_keys: z.array(Key).max(200),
  selective_logic: SelectiveLogic,
  /** The entry's title for the user (SillyTavern's `comment`). */
  comment: z.string().max(1_000),
  content: z.string().max(100_000),
  /** Fires every turn without a key. */
  constant: z.boolean(),
  enabled: z.boolean(),
  case_sensitive: z.boolean().nullable(),
  match_whole_words: z.boolean().nullable(),
  /** Messages read for keys, the new prompt first; null: the book's. */
  scan_depth: z.number().int().min(0).max(1_000).nullable(),
  position: LorePosition,
  /** For `at_depth`: inserted above this many messages from the end. */
  depth: z.number().int().min(0).max(1_000),
  role: z.enum(['system', 'user', 'assistant']),
  /** Lower goes first within a position; higher wins the budget. */
  order: z.number().int().min(-1_000_000).max(1_000_000),
  /** Chance in percent that a matched entry fires (when `use_probability`). */
  probability: z.number().min(0).max(100),
  use_probability: z.boolean(),
  /** Inclusion groups, comma-separated: of the entries of one group that match, one fires. */
  group: z.string().max(1_000),
  group_override: z.boolean(),
  group_weight: z.number().min(0).max(1_000_000),
  /** The group's winner is among the entries with the most key matches. */
  use_group_scoring: z.boolean(),
  /** Stays fired this many turns after it fired. */
  sticky: Turns,
  /** Cannot fire for this many turns after it fired (after its stickiness ends). */
  cooldown: Turns,
  /** Cannot fire before the conversation has this many turns. */
  delay: Turns,
  /** Not fired by another entry's text. */
  exclude_recursion: z.boolean(),
  /** Its text does not fire other entries. */
  prevent_recursion: z.boolean(),
  /** Fires only from another entry's text. */
  delay_until_recursion: z.boolean(),
  /** Goes in even when the book's budget is spent. */
  ignore_budget: z.boolean(),
  /**
   * Fields SillyTavern (or another tool) defines that Loomverse keeps, written back as they came
   * on export. Two of them are acted on as SillyTavern does: `characterFilter` ({names, tags,
   * isExclude}: the entry fires only for, or never for, the personas named) and `outletName`.
   */
  extra: z.record(z.string(), z.unknown()),
})
export type LoreEntry = z.infer<typeof LoreEntry>

/** SillyTavern's character filter of an entry, as kept in its `extra`. */
export interface LoreCharacterFilter {
  names: string[]
  tags: string[]
  isExclude: boolean
}

/** The character filter an entry's `extra` holds, or null when it has none (or one of another shape). */
export function characterFilterOf(extra: Record<string, unknown>): LoreCharacterFilter | null {
  const f = extra.characterFilter
  if (!f || typeof f !== 'object' || Array.isArray(f)) return null
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
  const r = f as Record<string, unknown>
  return { names: list(r.names), tags: list(r.tags), isExclude: r.isExclude === true }
}

export const LoreBookSettings = z.object({
  /** Messages read for keys, the new prompt first. */
  scan_depth: z.number().int().min(0).max(1_000),
  /** Tokens the book's fired entries may take together (0: no limit but the context's). */
  token_budget: z.number().int().min(0).max(1_000_000),
  /** Fired entries' text is scanned again for keys, up to `max_recursion` times. */
  recursive: z.boolean(),
  max_recursion: z.number().int().min(0).max(20),
  case_sensitive: z.boolean(),
  match_whole_words: z.boolean(),
})
export type LoreBookSettings = z.infer<typeof LoreBookSettings>

export const LoreTargetKind = z.enum(['global', 'persona', 'flow', 'story'])
export type LoreTargetKind = z.infer<typeof LoreTargetKind>

export const LoreAttachment = z.object({ kind: LoreTargetKind, target_id: z.string() })
export type LoreAttachment = z.infer<typeof LoreAttachment>

export const LoreBook = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  settings: LoreBookSettings,
  entries: z.array(LoreEntry),
  attachments: z.array(LoreAttachment),
  /** Book-level fields of an imported book that Loomverse keeps for export. */
  extra: z.record(z.string(), z.unknown()),
  created: z.string(),
  updated: z.string(),
  /**
   * Regular expression keys of its entries left out of matching since the app started: each took
   * too long on a text (a runaway pattern), so the entry fires only by its other keys.
   */
  skipped_keys: z.array(z.object({ uid: z.number().int(), key: z.string() })).optional(),
})
export type LoreBook = z.infer<typeof LoreBook>

export const LoreBookSummary = LoreBook.pick({
  id: true,
  name: true,
  description: true,
  attachments: true,
  updated: true,
}).extend({ entry_count: z.number().int().nonnegative() })
export type LoreBookSummary = z.infer<typeof LoreBookSummary>

/** Why an entry fired, for the context inspector. */
export const LoreReason = z.object({
  kind: z.enum(['key', 'constant', 'sticky', 'recursion']),
  /** The key that matched (null for constant and sticky). */
  key: z.string().nullable(),
  /** Message the key was found in: 0 is the new prompt, 1 the reply before it, and so on. */
  message: z.number().int().nullable(),
})
export type LoreReason = z.infer<typeof LoreReason>

const EntryFields = LoreEntry.omit({ uid: true }).partial()

const BookFields = z.object({
  name: DisplayName(200),
  description: z.string().max(10_000),
  settings: LoreBookSettings.partial(),
})

const Target = z.object({ book_id: Id, kind: LoreTargetKind, target_id: z.string().max(200) }).strict()

export const lorebookMethods = {
  list_lorebooks: { input: z.object({}).strict(), output: z.array(LoreBookSummary) },
  get_lorebook: { input: z.object({ id: Id }).strict(), output: LoreBook },
  create_lorebook: { input: BookFields.partial().required({ name: true }).strict(), output: LoreBook },
  update_lorebook: { input: BookFields.partial().extend({ id: Id }).strict(), output: LoreBook },
  delete_lorebook: { input: z.object({ id: Id }).strict(), output: z.object({ id: Id }) },
  /** Adds an entry with SillyTavern's defaults for what is not given; the book comes back. */
  create_lore_entry: { input: EntryFields.extend({ book_id: Id }).strict(), output: LoreBook },
  update_lore_entry: {
    input: EntryFields.extend({ book_id: Id, uid: z.number().int().min(0) }).strict(),
    output: LoreBook,
  },
  delete_lore_entry: { input: z.object({ book_id: Id, uid: z.number().int().min(0) }).strict(), output: LoreBook },
  /** `global` takes an empty target_id; persona, flow and story their id. */
  attach_lorebook: { input: Target, output: LoreBook },
  detach_lorebook: { input: Target, output: LoreBook },
  /** A SillyTavern World Info file, a card's character_book or a NovelAI .lorebook, as a new book. */
  import_lorebook: {
    input: z.object({ name: DisplayName(200), text: z.string().max(50_000_000) }).strict(),
    output: LoreBook,
  },
  /** The book as SillyTavern World Info JSON. */
  export_lorebook: { input: z.object({ id: Id }).strict(), output: z.object({ name: z.string(), json: z.string() }) },
} as const satisfies MethodSpecs

/**
 * The Author's Note: text put into the conversation `depth` messages from its end, every `every`
 * turns (0 or 1: every turn). A conversation's own, else its persona's (the default).
 */
export const AuthorsNote = z.object({
  text: z.string().max(20_000),
  depth: z.number().int().min(0).max(1_000),
  every: z.number().int().min(0).max(1_000),
  role: z.enum(['system', 'user', 'assistant']),
})
export type AuthorsNote = z.infer<typeof AuthorsNote>

const NoteTarget = z.object({ kind: z.enum(['persona', 'flow']), target_id: z.string().min(1).max(200) })

export const authorsNoteMethods = {
  /** A conversation's note; `from` says whether it is its own, its persona's default, or none yet. */
  get_authors_note: {
    input: NoteTarget.strict(),
    output: AuthorsNote.extend({ from: z.enum(['own', 'persona', 'none']) }),
  },
  /** Sets the note; a conversation's with empty text falls back to its persona's again. */
  set_authors_note: { input: NoteTarget.extend(AuthorsNote.shape).strict(), output: AuthorsNote },
} as const satisfies MethodSpecs
