import type { authorsNoteMethods, lorebookMethods } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { HandlerModule } from '../kernel/router'
import { BookFormatError } from './formats/fields'
import { readBookFile } from './formats/readBookFile'
import { writeWorldInfo } from './formats/sillyTavern'
import type { LorebookService } from './lorebookService'

export function lorebookHandlers(
  books: LorebookService,
  personaOf: (flowId: string) => string | null,
): HandlerModule<typeof lorebookMethods & typeof authorsNoteMethods> {
  return {
    list_lorebooks: () => books.list(),
    get_lorebook: (i) => books.get(i.id),
    create_lorebook: (i) => books.create(i),
    update_lorebook: (i) => books.update(i),
    delete_lorebook: (i) => books.delete(i.id),
    create_lore_entry: (i) => books.createEntry(i),
    update_lore_entry: (i) => books.updateEntry(i),
    delete_lore_entry: (i) => books.deleteEntry(i),
    attach_lorebook: (i) => books.attach(i),
    detach_lorebook: (i) => books.detach(i),
    import_lorebook: (i) => books.importBook(readOrRefuse(i.text, i.name), i.name),
    export_lorebook: (i) => {
      const book = books.get(i.id)
      return { name: book.name, json: JSON.stringify(writeWorldInfo(book), null, 2) }
    },
    get_authors_note: (i) => books.note(i.kind, i.target_id, i.kind === 'flow' ? personaOf(i.target_id) : null),
    set_authors_note: ({ kind, target_id, ...note }) => books.setNote(kind, target_id, note),
  }
}

/** The book in a file, or bad_file naming the file, the field and the reason. */
export function readOrRefuse(text: string, name: string) {
  try {
    return readBookFile(text, name)
  } catch (e) {
    if (e instanceof BookFormatError) throw new AppError('bad_file', `${name}: ${e.message}`)
    throw e
  }
}
