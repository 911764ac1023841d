import { DEFAULT_BOOK_SETTINGS, newEntry } from '../loreDefaults'
import type { ImportedBook } from '../lorebookService'
import { BookFormatError, bool, entryCount, num, str, strings, type Raw } from './fields'

// NovelAI's .lorebook: `{ lorebookVersion, entries: [{ displayName, text, keys, enabled,
// forceActivation, contextConfig: { budgetPriority, … }, … }], settings, categories }`. Keys
// written /like this/ are regular expressions there too. What has no place in an entry here
// (search range, context config, bias groups) is kept in its `extra.novelai`.

export function readNovelAi(json: Raw, name: string): ImportedBook {
  if (!Array.isArray(json.entries)) throw new BookFormatError('entries', 'must be a list of entries')
  entryCount(json.entries, 'entries')
  const entries = json.entries.map((raw, i) => {
    const at = `entries.${i}`
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BookFormatError(at, 'must be an object')
    const e = raw as Raw
    const config = (e.contextConfig && typeof e.contextConfig === 'object' ? e.contextConfig : {}) as Raw
    const { text, displayName, keys, enabled, forceActivation, ...rest } = e
    return newEntry(i, {
      keys: strings(keys ?? [], `${at}.keys`),
      content: str(text ?? '', `${at}.text`),
      comment: str(displayName ?? '', `${at}.displayName`),
      enabled: bool(enabled ?? true, `${at}.enabled`),
      constant: bool(forceActivation ?? false, `${at}.forceActivation`),
      order:
        config.budgetPriority === undefined
          ? 400
          : Math.round(num(config.budgetPriority, `${at}.contextConfig.budgetPriority`, -1e6, 1e6)),
      extra: { novelai: rest },
    })
  })
  const { entries: _entries, ...extra } = json
  return { name, description: '', settings: { ...DEFAULT_BOOK_SETTINGS }, entries, extra: { novelai: extra } }
}
