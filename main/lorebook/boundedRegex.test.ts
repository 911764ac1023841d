import { describe, expect, it } from 'vitest'
import { BoundedRegexes, runsInLinearTime } from './boundedRegex'

describe('BoundedRegexes', () => {
  it('among many keys, leaves out only the one that backtracks for ever, and still answers the rest', () => {
    const res = new BoundedRegexes()
    // Half of them repeat (`\s*`), so they go through the bound beside the hostile one.
    const ids = Array.from({ length: 64 }, (_, i) => res.add(new RegExp(i % 2 ? `word${i}\\b` : `word${i}\\b\\s*`)))
    const hostile = res.add(/(x+x+)+y$/)
    const text = `word7 and word40 ${'x'.repeat(48)}`
    expect([...res.matching(text)].sort((a, b) => a - b)).toEqual([ids[7], ids[40]])
    expect(res.slow).toEqual(['/(x+x+)+y$/'])
    // Left out from then on, even on a text where it would end at once.
    expect([...res.matching('word1 xy')]).toEqual([ids[1]])
    expect(hostile).toBe(64)
  })
  it('tests directly only keys that run in linear time on any text: no repetition, no back-reference, few choices', () => {
    for (const linear of [/\bdragons?\b/i, /colou?r/, /(cat|dog)s?/, /a[*+{]b/, /\*\+/, /(?<=Sir )Lancelot/])
      expect(runsInLinearTime(linear), String(linear)).toBe(true)
    for (const bounded of [
      /(a+)+$/,
      /\w+ing/,
      /a*b/,
      /x{2,}/,
      /(a|aa){1,30}/,
      /(a)\1/,
      /(?<c>a)\k<c>/,
      /a?a?a?a?a?a?aaaaaa/,
      /(a|a)(a|a)(a|a)(a|a)(a|a)b/,
    ])
      expect(runsInLinearTime(bounded), String(bounded)).toBe(false)
  })
})
