import { describe, expect, it } from 'vitest'
import { approxBytes } from './approxBytes'

describe('approxBytes', () => {
  it('counts a string by its characters, two bytes each past Latin-1', () => {
    expect(approxBytes('a'.repeat(1000))).toBeGreaterThanOrEqual(1000)
    expect(approxBytes('あ'.repeat(1000))).toBeGreaterThanOrEqual(2000)
    expect(approxBytes('あ'.repeat(1000))).toBeLessThan(2100)
  })

  it('counts every copy of a text an object holds, and what arrays hold', () => {
    const text = 'x'.repeat(1000)
    expect(approxBytes({ text, key: text, bullet: `- ${text}` })).toBeGreaterThanOrEqual(3000)
    expect(approxBytes(['a'.repeat(500), 'b'.repeat(500)])).toBeGreaterThanOrEqual(1000)
    expect(approxBytes({ id: 1, n: null, ok: true })).toBeGreaterThan(0)
  })

  it('ends on a value that holds itself', () => {
    const loop: { self?: unknown; text: string } = { text: 'x' }
    loop.self = loop
    expect(approxBytes(loop)).toBeLessThan(1000)
  })
})
