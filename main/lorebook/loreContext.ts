import type { AuthorsNote, LorePosition } from '@shared/contract'
import { activateLore, type EngineBook, type FiredEntry, type FiredRecord, type SkippedKey } from './loreEngine'
import type { LorebookService, LoreScope } from './lorebookService'
import { expandMacros, type MacroScope } from './macros'
import { seededRandom } from './seededRandom'

/** One piece of text the lorebooks or the Author's Note put into a prompt's context. */
export interface LoreInsert {
  kind: 'lore' | 'authors_note'
  text: string
  /** Around the persona text, or among the messages `depth` from the end. */
  place: 'before_system' | 'after_system' | 'at_depth'
  depth: number
  role: AuthorsNote['role']
  /** For a lorebook entry: which, and why it fired. */
  fired?: FiredEntry
}

export interface LoreContextInput {
  scope: LoreScope
  /** Books that are not stored (a story's scenario folder). */
  extraBooks?: readonly (EngineBook & { updated?: string })[]
  /**
   * The branch, read only when a book or an every-N note needs it (most conversations have
   * neither): the messages to scan, newest first (the new prompt, the reply before it, …), the
   * nodes above the prompt, newest first, and how many turns came before this prompt.
   */
  branch: () => { messages: readonly string[]; ancestors: readonly string[]; turn: number }
  /** Fixes probability rolls, group draws and {{random}} for this prompt (a preview and the send agree). */
  seed: string
  names: Omit<MacroScope, 'random'>
}

const HISTORY_TURNS = 100

/**
 * What the lorebooks in play and the Author's Note add to a prompt, in insertion order, and the
 * entries that fired (kept at the node answered, for the turns after it).
 */
export function loreContext(
  books: LorebookService,
  input: LoreContextInput,
): { inserts: LoreInsert[]; fired: FiredRecord[]; outlets: Map<string, string>; skipped: SkippedKey[] } {
  const random = seededRandom(input.seed)
  const outlets = new Map<string, string>()
  const expand = (text: string) => expandMacros(text, { ...input.names, random, outlets })
  const note = books.note('flow', input.scope.flowId, input.scope.personaId)
  const engineBooks = [...books.booksFor(input.scope), ...(input.extraBooks ?? [])]
  if (engineBooks.length === 0 && !note.text.trim()) return { inserts: [], fired: [], outlets, skipped: [] }
  let read: ReturnType<LoreContextInput['branch']> | null = null
  const branch = () => (read ??= input.branch())
  const result =
    engineBooks.length > 0
      ? activateLore(books.compile(engineBooks), {
          messages: branch().messages,
          turn: branch().turn,
          history: books.firedAt(branch().ancestors.slice(0, HISTORY_TURNS)),
          random,
          character: input.names.char,
        })
      : { fired: [], over_budget: [], skipped_keys: [] }

  const entry = (f: FiredEntry, place: LoreInsert['place'], depth: number, role: LoreInsert['role']): LoreInsert => ({
    kind: 'lore',
    text: expand(f.entry.content),
    place,
    depth,
    role,
    fired: f,
  })
  const at = (position: LorePosition) => result.fired.filter((f) => f.entry.position === position)
  // Outlets first: an entry or note below may write {{outlet::name}}. Their text joins in insertion order.
  for (const f of at('outlet')) {
    const name = typeof f.entry.extra.outletName === 'string' ? f.entry.extra.outletName.trim() : ''
    if (!name) continue
    const text = expandMacros(f.entry.content, { ...input.names, random })
    outlets.set(name, outlets.has(name) ? `${outlets.get(name)}\n${text}` : text)
  }
  const inserts: LoreInsert[] = [
    ...at('before_persona').map((f) => entry(f, 'before_system', 0, 'system')),
    ...at('after_persona').map((f) => entry(f, 'after_system', 0, 'system')),
    // The example dialogue is part of the persona text here: what goes around it follows the persona.
    ...at('em_top').map((f) => entry(f, 'after_system', 0, 'system')),
    ...at('em_bottom').map((f) => entry(f, 'after_system', 0, 'system')),
    ...at('at_depth').map((f) => entry(f, 'at_depth', f.entry.depth, f.entry.role)),
  ]
  // SillyTavern's "every N": the note goes in on turns N, 2N, … and its entries with it.
  const due = note.every <= 1 || (branch().turn + 1) % note.every === 0
  if (due) {
    const noteText = expand(note.text).trim()
    inserts.push(
      ...at('an_top').map((f) => entry(f, 'at_depth', note.depth, note.role)),
      ...(noteText
        ? [
            {
              kind: 'authors_note' as const,
              text: noteText,
              place: 'at_depth' as const,
              depth: note.depth,
              role: note.role,
            },
          ]
        : []),
      ...at('an_bottom').map((f) => entry(f, 'at_depth', note.depth, note.role)),
    )
  }
  const fired = result.fired
    .filter((f) => due || (f.entry.position !== 'an_top' && f.entry.position !== 'an_bottom'))
    .map((f) => ({ book_id: f.book_id, uid: f.entry.uid, kind: f.reason.kind }))
  return { inserts, fired, outlets, skipped: result.skipped_keys }
}
