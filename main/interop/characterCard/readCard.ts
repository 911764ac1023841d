import { inflateSync } from 'node:zlib'
import { z } from 'zod'
import { ImportFileError } from '../../kernel/importFileError'

// SillyTavern character cards: a JSON file, or a PNG (the character's picture) carrying the
// card as base64 JSON in a text chunk — `ccv3` for spec v3, `chara` for v2 and v1. Where both
// are present the v3 chunk is the newer card.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

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
  /** Whether the card came inside a picture (not imported as such). */
  picture: boolean
}

/** The card in a file's bytes, or an error naming the file and what was wrong. */
export function readCard(bytes: Buffer, name: string): ReadCard {
  const picture = bytes.subarray(0, 8).equals(PNG_SIGNATURE)
  let text: string
  if (picture) {
    const chunks = textChunks(bytes, name)
    const encoded = chunks.get('ccv3') ?? chunks.get('chara')
    if (encoded === undefined) throw new ImportFileError(name, null, 'is a picture without a character card in it')
    text = Buffer.from(encoded, 'base64').toString('utf8')
  } else text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ImportFileError(name, null, picture ? 'holds a card that is not JSON' : 'is neither a PNG card nor JSON')
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
  if ('spec' in value && 'data' in value && typeof value.spec === 'string' && value.spec.startsWith('chara_card_v'))
    return { spec: value.spec === 'chara_card_v3' ? 'v3' : 'v2', data: value.data as CardData, picture }
  return { spec: 'v1', data: value as CardData, picture }
}

/**
 * The PNG's text chunks by keyword (`tEXt`, and `iTXt` compressed or not), walked by the
 * format's own framing: length, type, data, CRC. A chunk running past the end is an error.
 */
function textChunks(png: Buffer, name: string): Map<string, string> {
  const found = new Map<string, string>()
  let at = 8
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    const start = at + 8
    const end = start + length
    if (end + 4 > png.length)
      throw new ImportFileError(name, null, `is a damaged PNG (chunk ${type} runs past the end)`)
    const data = png.subarray(start, end)
    if (type === 'tEXt') {
      const zero = data.indexOf(0)
      if (zero > 0) found.set(data.toString('latin1', 0, zero), data.toString('latin1', zero + 1))
    } else if (type === 'iTXt') {
      const zero = data.indexOf(0)
      if (zero > 0) {
        const compressed = data[zero + 1] === 1
        const langEnd = data.indexOf(0, zero + 3)
        const keyEnd = langEnd < 0 ? -1 : data.indexOf(0, langEnd + 1)
        if (keyEnd > 0) {
          const body = data.subarray(keyEnd + 1)
          found.set(data.toString('latin1', 0, zero), (compressed ? inflateSync(body) : body).toString('utf8'))
        }
      }
    } else if (type === 'IEND') break
    at = end + 4
  }
  return found
}
