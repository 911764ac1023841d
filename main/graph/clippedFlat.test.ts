import { describe, expect, it } from 'vitest'
import { clippedFlat } from './context'
import { seededRandom } from '../../tests/support/seededRandom'

/** What an ancestor's line was before: the whole text flattened, then cut. */
const whole = (text: string, n: number) => {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > n ? `${flat.slice(0, n)}…` : flat
}

describe("an ancestor's line without a summary", () => {
  it('is the same as flattening the whole turn, for texts of every shape around the cut', () => {
    const pieces = ['a', 'word ', '  ', '\n\n', '\t', '京都の', ' → ', '😀', '   \n  ']
    const next = seededRandom(7)
    for (let i = 0; i < 3000; i++) {
      const length = Math.floor(next() * 400)
      let text = ''
      while (text.length < length) text += pieces[Math.floor(next() * pieces.length)]
      for (const n of [1, 10, 40, 240]) expect(clippedFlat(text, n), JSON.stringify([text, n])).toBe(whole(text, n))
    }
  })

  it('gives the same line for long turns, white space first or last', () => {
    const reply = `${'The garden was quiet this morning. '.repeat(20)}${' '.repeat(5000)}tail`
    expect(clippedFlat(reply, 240)).toBe(whole(reply, 240))
    const spaced = `${'\n '.repeat(3000)}${'Kyoto in spring. '.repeat(30)}`
    expect(clippedFlat(spaced, 240)).toBe(whole(spaced, 240))
    expect(clippedFlat('short   and\n\nplain', 240)).toBe('short and plain')
  })
})
