import { basename } from 'node:path'
import { cleanName, type Persona } from '@shared/contract'
import type { GraphService } from '../../graph/graphService'
import { openImportFile } from '../../kernel/importFile'
import { ImportFileError } from '../../kernel/importFileError'
import { MAX_CARD_BYTES } from '../../kernel/importLimits'
import { isoNow } from '../../kernel/time'
import { readCharacterBook } from '../../lorebook/formats/characterBook'
import { BookFormatError } from '../../lorebook/formats/fields'
import type { ImportedBook, LorebookService } from '../../lorebook/lorebookService'
import type { PersonaService } from '../../persona/personaService'
import { readCard, type CardData } from './readCard'

export interface CardImportReport {
  persona: Persona
  /** The conversation opened with the card's greetings; null when it has none. */
  flow_id: string | null
  greetings: number
  spec: 'v1' | 'v2' | 'v3'
  /** The card's lorebook, kept as a book attached to the persona; null when it has none. */
  lorebook_id: string | null
  /** What the card holds that Loomverse did not take, in words for the user. */
  skipped: string[]
}

/**
 * A SillyTavern character card (PNG or JSON, spec v1–v3) as a persona: the description,
 * personality, scenario and example dialogue become who it is; the card's system prompt and
 * post-history instructions what it promised; its greetings the first turns of a new
 * conversation, each alternate greeting a branch of its own.
 */
export async function importCard(
  deps: { graph: GraphService; personas: PersonaService; lorebooks: LorebookService },
  path: string,
  name = basename(path),
): Promise<CardImportReport> {
  const handle = await openImportFile(path, { name, maxBytes: MAX_CARD_BYTES })
  let bytes: Buffer
  try {
    bytes = await handle.readFile()
  } finally {
    await handle.close()
  }
  const card = readCard(bytes, name)
  const d = card.data
  const who = cleanName(d.name).trim().slice(0, 100) || 'Character'
  // The book is read and checked before anything is made: a card with a broken book is refused whole.
  const book = cardBook(d, who, name)
  if (book) deps.lorebooks.check(book)
  const fill = (text: string) =>
    text
      .replace(/\{\{char\}\}/gi, who)
      .replace(/\{\{user\}\}/gi, 'the user')
      .trim()
  const persona = deps.personas.create({
    name: who,
    persona_text: section(
      [
        ['', d.description],
        ['Personality', d.personality],
        ['Scenario', d.scenario],
        ['Example dialogue', d.mes_example],
      ],
      fill,
    ),
    contract_text: section(
      [
        ['', d.system_prompt],
        ['After the conversation', d.post_history_instructions],
      ],
      fill,
    ),
  })
  const lorebook = book ? deps.lorebooks.importBook(book, { kind: 'persona', target_id: persona.id }) : null
  const greetings = [d.first_mes, ...d.alternate_greetings].map(fill).filter(Boolean)
  const flow =
    greetings.length > 0
      ? await deps.graph.importFlow(
          { name: who, description: `Character card: ${who}`, persona_id: persona.id },
          greetings.map((g, i) => ({
            timestamp: isoNow(new Date(Date.now() + i)),
            prompt: '',
            response: g,
            model: 'character card',
            status: 'complete' as const,
            parents: [],
          })),
        )
      : null
  return {
    persona,
    flow_id: flow?.flow_id ?? null,
    greetings: greetings.length,
    spec: card.spec,
    lorebook_id: lorebook?.id ?? null,
    skipped: leftOut(d, card.picture),
  }
}

/** The card's character_book as a book named after the character, or null when it has no entries. */
function cardBook(d: CardData, who: string, file: string): ImportedBook | null {
  if (!d.character_book || d.character_book.entries.length === 0) return null
  try {
    return readCharacterBook(d.character_book, `${who}'s lorebook`)
  } catch (e) {
    if (e instanceof BookFormatError)
      throw new ImportFileError(file, null, `has a lorebook that cannot be read: ${e.message}`)
    throw e
  }
}

function section(parts: Array<[string, string]>, fill: (t: string) => string): string {
  return parts
    .map(([label, text]) => [label, fill(text)] as const)
    .filter(([, text]) => text)
    .map(([label, text]) => (label ? `[${label}]\n${text}` : text))
    .join('\n\n')
    .slice(0, 100_000)
}

function leftOut(d: CardData, picture: boolean): string[] {
  const out: string[] = []
  if (picture) out.push("the card's picture")
  if (d.creator_notes.trim()) out.push("the creator's notes")
  if (d.tags.length > 0) out.push(`tags: ${d.tags.join(', ')}`)
  if (d.assets && d.assets.length > 0) out.push(`${d.assets.length} assets`)
  return out
}
