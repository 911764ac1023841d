import type { LoreEntry } from '@shared/contract'
import { DEFAULT_BOOK_SETTINGS } from '../loreDefaults'
import type { ImportedBook } from '../lorebookService'
import { BookFormatError, bool, entryCount, int, str, strings, type Raw } from './fields'
import { fromStEntry, toStEntry } from './sillyTavern'

// A character card's `character_book` (Character Card spec v2, kept in v3): an array of entries
// with `keys`, `insertion_order` and SillyTavern's own fields under `extensions`. Read as
// SillyTavern itself reads it (convertCharacterBook): into a World Info entry, then as one.

const ext = (e: Raw): Raw => (e.extensions && typeof e.extensions === 'object' ? (e.extensions as Raw) : {})

/** SillyTavern's World Info entry for a card book entry. */
function asWorldInfo(e: Raw, index: number): Raw {
  const x = ext(e)
  const pick = (...values: unknown[]) => values.find((v) => v !== undefined)
  return {
    uid: index,
    key: e.keys,
    keysecondary: pick(e.secondary_keys, []),
    comment: pick(e.comment, e.name, ''),
    content: pick(e.content, ''),
    constant: pick(e.constant, false),
    selective: pick(e.selective, false),
    order: pick(e.insertion_order, 100),
    position: pick(x.position, e.position === 'before_char' ? 0 : 1),
    excludeRecursion: pick(x.exclude_recursion, false),
    preventRecursion: pick(x.prevent_recursion, false),
    delayUntilRecursion: pick(x.delay_until_recursion, false),
    disable: e.enabled === undefined ? false : !e.enabled,
    displayIndex: pick(x.display_index, index),
    probability: pick(x.probability, 100),
    useProbability: pick(x.useProbability, true),
    depth: pick(x.depth, 4),
    selectiveLogic: pick(x.selectiveLogic, 0),
    group: pick(x.group, ''),
    groupOverride: pick(x.group_override, false),
    groupWeight: pick(x.group_weight, 100),
    scanDepth: pick(x.scan_depth, null),
    caseSensitive: pick(x.case_sensitive, e.case_sensitive, null),
    matchWholeWords: pick(x.match_whole_words, null),
    useGroupScoring: pick(x.use_group_scoring, null),
    automationId: pick(x.automation_id, ''),
    role: pick(x.role, 0),
    vectorized: pick(x.vectorized, false),
    sticky: pick(x.sticky, 0),
    cooldown: pick(x.cooldown, 0),
    delay: pick(x.delay, 0),
    // SillyTavern keeps an entry's character filter on the card's entry itself, and a newer one its outlet in extensions.
    ...(e.character_filter !== undefined && { characterFilter: e.character_filter }),
    ...(x.outlet_name !== undefined && { outletName: x.outlet_name }),
  }
}

/** A card's `character_book` as a book named after the card when it has no name of its own. */
export function readCharacterBook(raw: unknown, fallbackName: string, at = 'character_book'): ImportedBook {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BookFormatError(at, 'must be an object')
  const b = raw as Raw
  if (!Array.isArray(b.entries)) throw new BookFormatError(`${at}.entries`, 'must be a list of entries')
  entryCount(b.entries, `${at}.entries`)
  const entries = b.entries.map((e, i) => {
    const where = `${at}.entries.${i}`
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw new BookFormatError(where, 'must be an object')
    if ((e as Raw).keys === undefined) throw new BookFormatError(`${where}.keys`, 'is missing')
    strings((e as Raw).keys, `${where}.keys`)
    return fromStEntry(asWorldInfo(e as Raw, i), i, where)
  })
  // A card book's ids are its own; SillyTavern renumbers them too.
  const name = b.name === undefined ? fallbackName : str(b.name, `${at}.name`).trim() || fallbackName
  return {
    name: name.slice(0, 200),
    description: b.description === undefined ? '' : str(b.description, `${at}.description`),
    settings: {
      ...DEFAULT_BOOK_SETTINGS,
      ...(b.scan_depth !== undefined && { scan_depth: int(b.scan_depth, `${at}.scan_depth`, 0, 1000) }),
      ...(b.token_budget !== undefined && { token_budget: int(b.token_budget, `${at}.token_budget`, 0, 1_000_000) }),
      ...(b.recursive_scanning !== undefined && { recursive: bool(b.recursive_scanning, `${at}.recursive_scanning`) }),
    },
    entries,
    extra: b.extensions && typeof b.extensions === 'object' ? { extensions: b.extensions } : {},
  }
}

/** A book as a card's `character_book`, SillyTavern's fields under each entry's `extensions`. */
export function writeCharacterBook(book: {
  name: string
  description: string
  settings: ImportedBook['settings']
  entries: readonly LoreEntry[]
  extra: Raw
}): Raw {
  return {
    name: book.name,
    description: book.description,
    scan_depth: book.settings.scan_depth,
    token_budget: book.settings.token_budget,
    recursive_scanning: book.settings.recursive,
    extensions: (book.extra.extensions as Raw | undefined) ?? {},
    entries: book.entries.map((e, i) => {
      const st = toStEntry(e)
      return {
        id: e.uid,
        keys: e.keys,
        secondary_keys: e.secondary_keys,
        comment: e.comment,
        content: e.content,
        constant: e.constant,
        selective: e.secondary_keys.length > 0,
        insertion_order: e.order,
        enabled: e.enabled,
        position: e.position === 'before_persona' ? 'before_char' : 'after_char',
        case_sensitive: e.case_sensitive ?? false,
        name: e.comment,
        priority: e.order,
        ...(e.extra.characterFilter !== undefined && { character_filter: e.extra.characterFilter }),
        extensions: {
          position: st.position,
          exclude_recursion: e.exclude_recursion,
          prevent_recursion: e.prevent_recursion,
          delay_until_recursion: e.delay_until_recursion,
          display_index: st.displayIndex ?? i,
          probability: e.probability,
          useProbability: e.use_probability,
          depth: e.depth,
          selectiveLogic: st.selectiveLogic,
          group: e.group,
          group_override: e.group_override,
          group_weight: e.group_weight,
          scan_depth: e.scan_depth,
          case_sensitive: e.case_sensitive,
          match_whole_words: e.match_whole_words,
          use_group_scoring: e.use_group_scoring,
          automation_id: st.automationId ?? '',
          role: st.role,
          vectorized: st.vectorized ?? false,
          sticky: e.sticky,
          cooldown: e.cooldown,
          delay: e.delay,
          ...(e.extra.outletName !== undefined && { outlet_name: e.extra.outletName }),
        },
      }
    }),
  }
}
