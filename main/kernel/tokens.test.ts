import { describe, expect, it } from 'vitest'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { joinCounted, tokenCount, tokenCountOfLines } from './tokens'
import { seededRandom } from '../../tests/support/seededRandom'

// A MemoryPack is counted line by line; the sum must be the count of the text it sends.

describe('counting lines one by one', () => {
  it('gives the count of the joined text, for 3,000 random sets of lines', () => {
    const next = seededRandom(20261125)
    const pieces = [
      'word',
      'Caroline',
      "don't",
      ' ',
      '  ',
      '.',
      '!',
      '?',
      '…',
      '/',
      ' / ',
      '-',
      '- ',
      '## ',
      '###',
      '2023-05-08',
      '42',
      '12345',
      'ことば',
      '日本語の文。',
      '😀',
      '\t',
      '\r',
      '\n',
      '',
      ':',
      '"',
      "'s",
      '[',
      ']',
      '(',
      ')',
    ]
    for (let i = 0; i < 3000; i++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 8) }, () => {
        let line = ''
        const length = Math.floor(next() * 12)
        for (let j = 0; j < length; j++) line += pieces[Math.floor(next() * pieces.length)]
        return line
      })
      expect(tokenCountOfLines(lines), JSON.stringify(lines)).toBe(countTokens(lines.join('\n')))
      // Joined, the text's count is the one kept for it.
      expect(tokenCount(joinCounted(lines)), JSON.stringify(lines)).toBe(countTokens(lines.join('\n')))
    }
  })
})
