import { describe, expect, it } from 'vitest'
import { ITEM_CHARS, itemText } from './itemText'
import { seededRandom } from '../../../tests/support/seededRandom'

// A pack line flattens only the start of a long text; it must read exactly as the whole text
// flattened and cut would.

const whole = (raw: string) => {
  const flat = raw.replace(/\s*\n\s*/g, ' / ')
  return flat.length > ITEM_CHARS ? `${flat.slice(0, ITEM_CHARS)}…` : flat
}

describe("a memory item's line", () => {
  it('reads as the whole text flattened and cut would, for 3,000 random texts', () => {
    const next = seededRandom(20261128)
    const pieces = ['word', 'ことば', ' ', '  ', '\n', ' \n ', '\t', '\n\n\n', ' '.repeat(300), '\n'.repeat(50), '.']
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(next() * 6000)
      let raw = ''
      while (raw.length < length) raw += pieces[Math.floor(next() * pieces.length)]
      expect(itemText(raw), `text ${i}`).toBe(whole(raw))
    }
  })

  it('cuts a long reply to the start the pack shows', () => {
    const reply = `We walked to the lake.\nThen it rained.\n\n${'And more. '.repeat(2000)}`
    expect(itemText(reply).startsWith('We walked to the lake. / Then it rained. / And more.')).toBe(true)
    expect(itemText(reply)).toHaveLength(ITEM_CHARS + 1)
  })
})
