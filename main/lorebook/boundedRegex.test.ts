import { describe, expect, it } from 'vitest'
import { BoundedRegexes } from './boundedRegex'

describe('BoundedRegexes', () => {
  it('among many keys, leaves out only the one that backtracks for ever, and still answers the rest', () => {
    const res = new BoundedRegexes()
    const ids = Array.from({ length: 64 }, (_, i) => res.add(new RegExp(`word${i}\\b`)))
    const hostile = res.add(/(x+x+)+y$/)
    const text = `word7 and word40 ${'x'.repeat(48)}`
    expect([...res.matching(text)].sort((a, b) => a - b)).toEqual([ids[7], ids[40]])
    expect(res.slow).toEqual(['/(x+x+)+y$/'])
    // Left out from then on, even on a text where it would end at once.
    expect([...res.matching('word1 xy')]).toEqual([ids[1]])
    expect(hostile).toBe(64)
  })
})
