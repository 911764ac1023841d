import type { LoreBookSettings, LoreEntry } from '@shared/contract'

/** A new book's settings: SillyTavern's defaults (two messages scanned, recursion on). */
export const DEFAULT_BOOK_SETTINGS: LoreBookSettings = {
  scan_depth: 2,
  token_budget: 2048,
  recursive: true,
  max_recursion: 3,
  case_sensitive: false,
  match_whole_words: false,
}

/** An entry with SillyTavern's defaults for every field not given. */
export function newEntry(uid: number, fields: Partial<Omit<LoreEntry, 'uid'>> = {}): LoreEntry {
  return {
    uid,
    keys: [],
    secondary_keys: [],
    selective_logic: 'and_any',
    comment: '',
    content: '',
    constant: false,
    enabled: true,
    case_sensitive: null,
    match_whole_words: null,
    scan_depth: null,
    position: 'before_persona',
    depth: 4,
    role: 'system',
    order: 100,
    probability: 100,
    use_probability: true,
    group: '',
    group_override: false,
    group_weight: 100,
    use_group_scoring: false,
    sticky: 0,
    cooldown: 0,
    delay: 0,
    exclude_recursion: false,
    prevent_recursion: false,
    delay_until_recursion: false,
    ignore_budget: false,
    extra: {},
    ...fields,
  }
}
