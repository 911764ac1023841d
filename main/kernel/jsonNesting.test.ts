import { describe, expect, it } from 'vitest'
import { jsonTooDeep } from './jsonNesting'

describe('jsonTooDeep', () => {
  it('names the line where lists and objects first nest past the limit', () => {
    expect(jsonTooDeep('{"a": [[1]]}', 3)).toBeNull()
    expect(jsonTooDeep('{"a": [[[1]]]}', 3)).toEqual({ line: 1 })
    expect(jsonTooDeep('{\n  "a": 1,\n  "b": [[{}]]\n}', 3)).toEqual({ line: 3 })
    // Depth goes down again: siblings at the limit are fine.
    expect(jsonTooDeep('[[[]],[[]],[[]]]', 3)).toBeNull()
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeep(JSON.stringify({ text: '[[[[{{{{', quoted: 'say "[[[[" \\ ok' }), 2)).toBeNull()
    expect(jsonTooDeep(JSON.stringify(['\\', [[1]]]), 2)).toEqual({ line: 1 })
  })

  it('walks a million brackets without recursion', () => {
    const text = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`
    expect(jsonTooDeep(text, 32)).toEqual({ line: 1 })
    expect(jsonTooDeep(text, 1_000_000)).toBeNull()
  })
})
