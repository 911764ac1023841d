import { ImportFileError } from '../../kernel/importFileError'
import { MAX_LOREBOOK_CHARS, MAX_NESTING, mebibytes } from '../../kernel/importLimits'
import { jsonTooDeep } from '../../kernel/jsonNesting'
import type { ImportedBook } from '../lorebookService'
import { readCharacterBook } from './characterBook'
import { BookFormatError, type Raw } from './fields'
import { readNovelAi } from './novelAi'
import { readWorldInfo } from './sillyTavern'

/**
 * A lorebook file's text: SillyTavern World Info (`entries` an object), a card's
 * `character_book` (or a whole card JSON holding one), or NovelAI's .lorebook
 * (`lorebookVersion`). Refused with the field and the reason; nothing is stored before all of it reads.
 * The text is held to the import limits before it is parsed: its length, and its nesting (a
 * million brackets take JSON.parse seconds and leave a value that cannot be stored).
 */
export function readBookFile(text: string, file: string): ImportedBook {
  if (text.length > MAX_LOREBOOK_CHARS)
    throw new ImportFileError(
      file,
      null,
      `is ${text.length} characters, over the limit of ${MAX_LOREBOOK_CHARS} (${mebibytes(MAX_LOREBOOK_CHARS)}) for a lorebook`,
    )
  const deep = jsonTooDeep(text, MAX_NESTING)
  if (deep) throw new ImportFileError(file, deep.line, `nests lists or objects more than ${MAX_NESTING} deep`)
  // A book is named after its file, as SillyTavern names World Info: without the extension.
  const name = file.replace(/\.(json|lorebook)$/i, '') || file
  let json: unknown
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (e) {
    // V8's words quote the text around the fault, and the file may be anything: never echoed.
    const cut = e instanceof Error && e.message.includes('Unexpected end')
    throw new BookFormatError('(file)', cut ? 'is not JSON: it ends too soon' : 'is not JSON')
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
