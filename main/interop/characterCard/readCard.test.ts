import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ImportFileError } from '../../kernel/importFileError'
import {
  IMPORT_TEXT_MAX,
  MAX_BOOK_ENTRIES,
  MAX_CARD_GREETINGS,
  MAX_CARD_INFLATED_BYTES,
} from '../../kernel/importLimits'
import { iTxtChunk, pngWith, v2Card } from '../../../tests/support/foreignFiles'
import { readCard } from './readCard'

// A card comes from anyone: its compressed chunks and its own lists are bounded before they
// cost memory, and every way a file can be wrong answers bad_file naming the file and why.

const base64 = (card: unknown) => Buffer.from(Buffer.from(JSON.stringify(card)).toString('base64'))

/** The refusal readCard throws for `bytes`, as the user reads it. */
function refusal(bytes: Buffer, name = 'card.png'): { code: string; message: string } {
  try {
    readCard(bytes, name)
  } catch (e) {
    if (!(e instanceof ImportFileError)) throw e
    return { code: e.code, message: e.message }
  }
  throw new Error('the card was read')
}

describe('readCard: compressed chunks', () => {
  it('reads a card from a compressed iTXt chunk', () => {
    const png = pngWith({}, [iTxtChunk('chara', deflateSync(base64(v2Card)), true)])
    const read = readCard(png, 'card.png')
    expect(read).toMatchObject({ spec: 'v2', data: { name: 'Seraphina' }, format: 'png' })
    // The picture is kept as the persona's without the card's text in it.
    expect(read.icon?.includes(Buffer.from('iTXtchara', 'latin1'))).toBe(false)
    expect(read.icon?.subarray(0, 4).toString('latin1')).toBe('\x89PNG')
  }, 20_000)

  it('stops inflating a chunk at the limit and names the chunk', () => {
    // 50 MiB and one byte of zeros deflate to some 50 KB.
    const bomb = deflateSync(Buffer.alloc(MAX_CARD_INFLATED_BYTES + 1))
    expect(refusal(pngWith({}, [iTxtChunk('chara', bomb, true)]))).toEqual({
      code: 'bad_file',
      message: `card.png: the iTXt chunk "chara" inflates to more than ${MAX_CARD_INFLATED_BYTES} bytes (50 MiB), the limit for a card`,
    })
  }, 20_000)

  it('refuses invalid compressed data as a bad file, not an internal error', () => {
    const png = pngWith({}, [iTxtChunk('ccv3', Buffer.from('not deflate at all'), true)])
    expect(refusal(png)).toEqual({
      code: 'bad_file',
      message: 'card.png: the iTXt chunk "ccv3" holds damaged compressed data (incorrect header check)',
    })
  }, 20_000)

  it('leaves compressed chunks of other keywords alone', () => {
    const png = pngWith({ chara: base64(v2Card).toString('latin1') }, [
      iTxtChunk('XML:com.adobe.xmp', Buffer.from('not deflate'), true),
    ])
    expect(readCard(png, 'card.png').data.name).toBe('Seraphina')
  }, 20_000)
})

describe('readCard: the card’s own sizes', () => {
  const json = (data: Record<string, unknown>) =>
    Buffer.from(JSON.stringify({ ...v2Card, data: { ...v2Card.data, ...data } }))

  it('refuses more greetings than the limit', () => {
    const greetings = Array.from({ length: MAX_CARD_GREETINGS }, (_, i) => `hello ${i}`)
    expect(refusal(json({ alternate_greetings: greetings }), 'card.json')).toEqual({
      code: 'bad_file',
      message: `card.json: holds ${MAX_CARD_GREETINGS + 1} greetings, over the limit of ${MAX_CARD_GREETINGS}`,
    })
  }, 20_000)

  it('refuses a field longer than a node may hold, naming it', () => {
    expect(refusal(json({ description: 'x'.repeat(IMPORT_TEXT_MAX + 1) }), 'card.json')).toEqual({
      code: 'bad_file',
      message: `card.json: description is ${IMPORT_TEXT_MAX + 1} characters, over the limit of ${IMPORT_TEXT_MAX}`,
    })
    expect(refusal(json({ alternate_greetings: ['hi', 'y'.repeat(IMPORT_TEXT_MAX + 1)] }), 'card.json')).toEqual({
      code: 'bad_file',
      message: `card.json: alternate_greetings.1 is ${IMPORT_TEXT_MAX + 1} characters, over the limit of ${IMPORT_TEXT_MAX}`,
    })
  }, 20_000)

  it('refuses a lorebook with more entries than the limit', () => {
    const entries = Array.from({ length: MAX_BOOK_ENTRIES + 1 }, () => ({}))
    expect(refusal(json({ character_book: { entries } }), 'card.json')).toEqual({
      code: 'bad_file',
      message: `card.json: character_book holds ${MAX_BOOK_ENTRIES + 1} entries, over the limit of ${MAX_BOOK_ENTRIES}`,
    })
  }, 20_000)
})
