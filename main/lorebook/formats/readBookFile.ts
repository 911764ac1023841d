import type { ImportedBook } from '../lorebookService'
import { readCharacterBook } from './characterBook'
import { BookFormatError, type Raw } from './fields'
import { readNovelAi } from './novelAi'
import { readWorldInfo } from './sillyTavern'

/**
 * A lorebook file's text: SillyTavern World Info (`entries` an object), a card's
 * `character_book` (or a whole card JSON holding one), or NovelAI's .lorebook
 * (`lorebookVersion`). Refused with the field and the reason; nothing is stored before all of it reads.
 */
export function readBookFile(text: string, file: string): ImportedBook {
  // A book is named after its file, as SillyTavern names World Info: without the extension.
  const name = file.replace(/\.(json|lorebook)$/i, '') || file
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (e) {
    throw new BookFormatError('(file)', `is not JSON (${e instanceof Error ? e.message : String(e)})`)
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new BookFormatError('(file)', 'must be a JSON object')
  const j = json as Raw
  if ('lorebookVersion' in j) return readNovelAi(j, name)
  const card = (j.data && typeof j.data === 'object' ? j.data : j) as Raw
  if (card.character_book)
    return readCharacterBook(card.character_book, `${String(card.name ?? name)}`, 'data.character_book')
  if (Array.isArray(j.entries)) return readCharacterBook(j, name, '(book)')
  if (j.entries && typeof j.entries === 'object') return readWorldInfo(j, name)
  throw new BookFormatError('entries', 'is missing: not a SillyTavern World Info, character book or NovelAI lorebook')
}
