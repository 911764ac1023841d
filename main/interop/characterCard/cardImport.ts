import { basename } from 'node:path'
import { cleanName, type Persona } from '@shared/contract'
import type { GraphService } from '../../graph/graphService'
import { openImportFile } from '../../kernel/importFile'
import { ImportFileError } from '../../kernel/importFileError'
import { MAX_CARD_BYTES } from '../../kernel/importLimits'
import { isoNow } from '../../kernel/time'
import { readCharacterBook } from '../../lorebook/formats/characterBook'
import { expandMacros } from '../../lorebook/macros'
import { seededRandom } from '../../lorebook/seededRandom'
import { BookFormatError } from '../../lorebook/formats/fields'
import type { ImportedBook, LorebookService } from '../../lorebook/lorebookService'
import { avatarProblem, type PersonaService } from '../../persona/personaService'
import { readCard, type CardData } from './readCard'

export interface CardImportReport {
  persona: Persona
  /** The conversation opened with the card's greetings; null when it has none. */
  flow_id: string | null
  greetings: number
  spec: 'v1' | 'v2' | 'v3'
  format: 'png' | 'json' | 'charx'
  /** Whether the card's picture (a PNG card's own, a CHARX card's main icon) became the persona's. */
  avatar: boolean
  /** The card's lorebook, kept as a book attached to the persona; null when it has none. */
  lorebook_id: string | null
  /** What the card holds that Loomverse did not take, in words for the user. */
  skipped: string[]
}

/**
 * A SillyTavern character card (PNG, JSON or CHARX; spec v1–v3) as a persona: the description,
 * personality, scenario and example dialogue become who it is; the card's system prompt and
 * post-history instructions what it promised; its greetings the first turns of a new
 * conversation, each alternate greeting a branch of its own, their macros filled as SillyTavern
 * fills them when a chat starts ({{user}} is the user's name, else "User"); its picture the
 * persona's.
 */
export async function importCard(
  deps: {
    graph: GraphService
    personas: PersonaService
    lorebooks: LorebookService
    /** The user's name ({{user}}), empty when they set none. */
    userName?: () => string
  },
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
  if (book) deps.lorebooks.check(book, name)
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
  const lorebook = book ? deps.lorebooks.importBook(book, name, { kind: 'persona', target_id: persona.id }) : null
  const pictureProblem = card.icon ? avatarProblem(card.icon) : null
  if (card.icon && !pictureProblem) deps.personas.setAvatar(persona.id, card.icon)
  // A v3 card's nickname is what {{char}} says in its texts.
  const nickname = typeof d.nickname === 'string' && d.nickname.trim() ? d.nickname.trim().slice(0, 100) : who
  const names = { char: nickname, user: deps.userName?.().trim() || 'User', now: new Date() }
  const random = seededRandom(`${who}|${name}`)
  const greetings = [d.first_mes, ...d.alternate_greetings]
    .map((g) => expandMacros(g, { ...names, random }).trim())
    .filter(Boolean)
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
    format: card.format,
    avatar: Boolean(card.icon && !pictureProblem),
    lorebook_id: lorebook?.id ?? null,
    skipped: leftOut(d, card.format === 'charx' && card.icon !== null && !pictureProblem, pictureProblem),
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

function leftOut(d: CardData, tookIconAsset: boolean, pictureProblem: string | null): string[] {
  const out: string[] = []
  if (pictureProblem) out.push(`the card's picture (${pictureProblem})`)
  if (d.creator_notes.trim()) out.push("the creator's notes")
  if (d.tags.length > 0) out.push(`tags: ${d.tags.join(', ')}`)
  // A CHARX card's main icon became the persona's picture; its other assets are not kept.
  const others = (d.assets?.length ?? 0) - (tookIconAsset ? 1 : 0)
  if (others > 0) out.push(`${others} assets (emotions, backgrounds and other files)`)
  return out
}
