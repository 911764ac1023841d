import type { FlowGraph, Persona } from '@shared/contract'
import { writeCharacterBook } from '../../lorebook/formats/characterBook'
import type { LorebookService } from '../../lorebook/lorebookService'
import { EMBEDDED, writeCharx } from './charx'
import { BLANK_PNG, withTextChunks } from './pngText'

/** What a card is made of: the persona, its greetings, and the books attached to it. */
export interface CardSource {
  persona: Persona
  greetings: string[]
  lorebooks: LorebookService
}

/**
 * The persona as Character Card v3 data (v2 readers take the same fields): who it is as the
 * description, what it promised as the system prompt, its greetings, and its lorebooks as one
 * character_book (the first book's name; entries renumbered when several are joined).
 */
export function cardData(source: CardSource): Record<string, unknown> {
  const { persona, greetings } = source
  const books = source.lorebooks
    .list()
    .filter((b) => b.attachments.some((a) => a.kind === 'persona' && a.target_id === persona.id))
    .map((b) => source.lorebooks.get(b.id))
  const entries = books.flatMap((b) => b.entries).map((e, uid) => (books.length > 1 ? { ...e, uid } : e))
  const book = books[0] ? writeCharacterBook({ ...books[0], entries }) : undefined
  return {
    name: persona.name,
    description: persona.persona_text,
    personality: '',
    scenario: '',
    first_mes: greetings[0] ?? '',
    mes_example: '',
    creator_notes: '',
    system_prompt: persona.contract_text,
    post_history_instructions: '',
    alternate_greetings: greetings.slice(1),
    tags: [],
    creator: '',
    character_version: '',
    extensions: {},
    group_only_greetings: [],
    ...(book ? { character_book: book } : {}),
  }
}

/** A PNG card: the v2 card in a `chara` chunk and the v3 card in a `ccv3` chunk, as SillyTavern writes both. */
export function cardPng(data: Record<string, unknown>, picture: Buffer = BLANK_PNG): Buffer {
  const { group_only_greetings: _v3Only, ...v2 } = data
  const encode = (card: unknown) => Buffer.from(JSON.stringify(card)).toString('base64')
  return withTextChunks(picture, [
    ['chara', encode({ spec: 'chara_card_v2', spec_version: '2.0', data: v2 })],
    ['ccv3', encode({ spec: 'chara_card_v3', spec_version: '3.0', data })],
  ])
}

const EXT = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' } as const

/**
 * A CHARX card (Character Card V3 zip): card.json, and the persona's picture as the card's main
 * icon under assets/icon/images/; without a picture, the icon is `ccdefault:` (the reader's own).
 */
export function cardCharx(
  data: Record<string, unknown>,
  picture: { mime: keyof typeof EXT; data: Uint8Array } | null,
): Buffer {
  const ext = picture ? EXT[picture.mime] : 'png'
  const path = `assets/icon/images/main.${ext}`
  const icon = { type: 'icon', uri: picture ? `${EMBEDDED}${path}` : 'ccdefault:', name: 'main', ext }
  const card = { spec: 'chara_card_v3', spec_version: '3.0', data: { ...data, assets: [icon] } }
  return writeCharx(card, picture ? [{ path, data: picture.data }] : [])
}

/** The greetings a card import made: the first turns (empty prompts) of the persona's first conversation, oldest first. */
export function greetingsOf(graph: FlowGraph | null): string[] {
  if (!graph) return []
  const children = new Set(graph.flow.connections.map((c) => c.to))
  return graph.nodes
    .filter((n) => !children.has(n.id) && n.prompt === '' && n.response)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    .map((n) => n.response)
}
