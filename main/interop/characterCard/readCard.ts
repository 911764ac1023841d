import { inflateSync } from 'node:zlib'
import { z } from 'zod'
import { ImportFileError } from '../../kernel/importFileError'
import {
  IMPORT_TEXT_MAX,
  MAX_BOOK_ENTRIES,
  MAX_CARD_GREETINGS,
  MAX_CARD_INFLATED_BYTES,
  MAX_NESTING,
  mebibytes,
} from '../../kernel/importLimits'
import { CHARX_CARD, embeddedPath, isZip, readZipEntries } from './charx'
import { withTextChunks } from './pngText'
import { jsonTooDeep } from '../../kernel/jsonNesting'

// SillyTavern character cards: a JSON file, or a PNG (the character's picture) carrying the
// card as base64 JSON in a text chunk — `ccv3` for spec v3, `chara` for v2 and v1. Where both
// are present the v3 chunk is the newer card. A CHARX file (spec v3) is a zip with the card as
// card.json and its pictures beside it (charx.ts).

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** The text chunks a card is carried in; a picture's other text (XMP, comments) is never unpacked. */
const CARD_KEYWORDS = new Set(['ccv3', 'chara'])

const Book = z.object({ entries: z.array(z.unknown()).default([]) }).passthrough()

export const CardData = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    personality: z.string().default(''),
    scenario: z.string().default(''),
    first_mes: z.string().default(''),
    mes_example: z.string().default(''),
    creator_notes: z.string().default(''),
    system_prompt: z.string().default(''),
    post_history_instructions: z.string().default(''),
    alternate_greetings: z.array(z.string()).default([]),
    tags: z.array(z.string()).default([]),
    character_book: Book.nullable().optional(),
    assets: z.array(z.unknown()).optional(),
  })
  .passthrough()
export type CardData = z.infer<typeof CardData>

const Card = z.union([
  z.object({ spec: z.enum(['chara_card_v2', 'chara_card_v3']), data: CardData }).passthrough(),
  CardData, // v1: the fields at the top level
])

export interface ReadCard {
  spec: 'v1' | 'v2' | 'v3'
  data: CardData
  /** What the card came in. */
  format: 'png' | 'json' | 'charx'
  /**
   * The character's picture: a PNG card's own picture (without the card's text in it), or a
   * CHARX card's main icon. Null for a JSON card or a CHARX card whose icon is not in the archive.
   */
  icon: Buffer | null
}

/** The card in a file's bytes, or an error naming the file and what was wrong. */
export function readCard(bytes: Buffer, name: string): ReadCard {
  if (isZip(bytes)) return readCharx(bytes, name)
  // Read as JSON, a renamed file would be refused as "neither a PNG card nor JSON": say what a CHARX card must be.
  if (/\.charx$/i.test(name))
    throw new ImportFileError(name, null, 'is named .charx but is not a zip archive (a CHARX card is one)')
  const picture = bytes.subarray(0, 8).equals(PNG_SIGNATURE)
  let text: string
  if (picture) {
    const chunks = textChunks(bytes, name)
    const encoded = chunks.get('ccv3') ?? chunks.get('chara')
    if (encoded === undefined) throw new ImportFileError(name, null, 'is a picture without a character card in it')
    text = Buffer.from(encoded, 'base64').toString('utf8')
  } else text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  const card = parseCard(
    text,
    name,
    picture ? 'holds a card that is not JSON' : 'is neither a PNG card nor JSON',
    !picture,
  )
  return { ...card, format: picture ? 'png' : 'json', icon: picture ? withTextChunks(bytes, [], CARD_KEYWORDS) : null }
}

/**
 * A CHARX card: card.json (a v3 card) and, of its assets, the main icon (`icon` named `main`,
 * else the first icon) when the card names it with an `embeded://` path in the archive. Other
 * assets are counted for the report, not read.
 */
function readCharx(bytes: Buffer, name: string): ReadCard {
  const json = readZipEntries(bytes, name, new Set([CHARX_CARD])).get(CHARX_CARD)
  if (!json) throw new ImportFileError(name, null, `is a zip archive without ${CHARX_CARD} (not a CHARX card)`)
  const card = parseCard(
    json.toString('utf8').replace(/^\uFEFF/, ''),
    name,
    `has a ${CHARX_CARD} that is not JSON`,
    false,
  )
  const icons = (card.data.assets ?? []).filter(
    (a): a is { type: string; name?: unknown; uri?: unknown } =>
      typeof a === 'object' && a !== null && (a as { type?: unknown }).type === 'icon',
  )
  const main = icons.find((a) => a.name === 'main') ?? icons[0]
  const path = main ? embeddedPath(main.uri) : null
  const icon = path ? (readZipEntries(bytes, name, new Set([path])).get(path) ?? null) : null
  return { ...card, format: 'charx', icon }
}

/** The card in its JSON text; `ownFile`: the text is the file itself, so a line of it means something. */
function parseCard(text: string, name: string, notJson: string, ownFile: boolean): Pick<ReadCard, 'spec' | 'data'> {
  const deep = jsonTooDeep(text, MAX_NESTING)
  if (deep)
    throw new ImportFileError(name, ownFile ? deep.line : null, `nests lists or objects more than ${MAX_NESTING} deep`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ImportFileError(name, null, notJson)
  }
  const card = Card.safeParse(json)
  if (!card.success) {
    const issue = card.error.issues[0]
    throw new ImportFileError(
      name,
      null,
      `is not a character card: ${issue?.path.join('.') || 'shape'}: ${issue?.message}`,
    )
  }
  const value = card.data
  const read: Pick<ReadCard, 'spec' | 'data'> =
    'spec' in value && 'data' in value && typeof value.spec === 'string' && value.spec.startsWith('chara_card_v')
      ? { spec: value.spec === 'chara_card_v3' ? 'v3' : 'v2', data: value.data as CardData }
      : { spec: 'v1', data: value as CardData }
  checkSizes(read.data, name)
  return read
}

/**
 * The card's own lists and texts against the import limits: each greeting becomes a node and
 * each field a persona's text, so none may hold more than a window could have typed.
 */
function checkSizes(d: CardData, name: string): void {
  const over = (what: string, n: number, limit: number) =>
    new ImportFileError(name, null, `holds ${n} ${what}, over the limit of ${limit}`)
  const greetings = 1 + d.alternate_greetings.length
  if (greetings > MAX_CARD_GREETINGS) throw over('greetings', greetings, MAX_CARD_GREETINGS)
  const entries = d.character_book?.entries.length ?? 0
  if (entries > MAX_BOOK_ENTRIES)
    throw new ImportFileError(
      name,
      null,
      `character_book holds ${entries} entries, over the limit of ${MAX_BOOK_ENTRIES}`,
    )
  const texts: Array<[string, string]> = [
    ...TEXT_FIELDS.map((field) => [field, d[field]] as [string, string]),
    ...d.alternate_greetings.map((g, i) => [`alternate_greetings.${i}`, g] as [string, string]),
  ]
  for (const [field, text] of texts)
    if (text.length > IMPORT_TEXT_MAX)
      throw new ImportFileError(
        name,
        null,
        `${field} is ${text.length} characters, over the limit of ${IMPORT_TEXT_MAX}`,
      )
}

const TEXT_FIELDS = [
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'post_history_instructions',
] as const satisfies ReadonlyArray<keyof CardData>

/**
 * The PNG's card chunks by keyword (`tEXt`, and `iTXt` compressed or not), walked by the
 * format's own framing: length, type, data, CRC. A chunk running past the end is an error.
 * Compressed text is inflated only for the card's keywords, and all of it together no further
 * than MAX_CARD_INFLATED_BYTES: a chunk of a few KB can inflate to gigabytes.
 */
function textChunks(png: Buffer, name: string): Map<string, string> {
  const found = new Map<string, string>()
  let inflated = 0
  let at = 8
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    const start = at + 8
    const end = start + length
    if (end + 4 > png.length)
      throw new ImportFileError(name, null, `is a damaged PNG (chunk ${type} runs past the end)`)
    const data = png.subarray(start, end)
    const zero = data.indexOf(0)
    const keyword = zero > 0 ? data.toString('latin1', 0, zero) : ''
    if (type === 'tEXt' && CARD_KEYWORDS.has(keyword)) {
      found.set(keyword, data.toString('latin1', zero + 1))
    } else if (type === 'iTXt' && CARD_KEYWORDS.has(keyword)) {
      const compressed = data[zero + 1] === 1
      const langEnd = data.indexOf(0, zero + 3)
      const keyEnd = langEnd < 0 ? -1 : data.indexOf(0, langEnd + 1)
      if (keyEnd > 0) {
        let body = data.subarray(keyEnd + 1)
        if (compressed) {
          body = inflateChunk(body, MAX_CARD_INFLATED_BYTES - inflated, `the iTXt chunk "${keyword}"`, name)
          inflated += body.length
        }
        found.set(keyword, body.toString('utf8'))
      }
    } else if (type === 'IEND') break
    at = end + 4
  }
  return found
}

/** `body` inflated to at most `room` bytes; past that, or damaged, the file is refused. */
function inflateChunk(body: Buffer, room: number, chunk: string, name: string): Buffer {
  try {
    return inflateSync(body, { maxOutputLength: Math.max(room, 1) })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new ImportFileError(
        name,
        null,
        `${chunk} inflates to more than ${MAX_CARD_INFLATED_BYTES} bytes (${mebibytes(MAX_CARD_INFLATED_BYTES)})` +
          `${room < MAX_CARD_INFLATED_BYTES ? ' with the chunks before it' : ''}, the limit for a card`,
      )
    // zlib's own words name the damage ("incorrect header check"), never the file's text.
    throw new ImportFileError(name, null, `${chunk} holds damaged compressed data (${(e as Error).message})`)
  }
}
