import { describe, expect, it } from 'vitest'
import { relativeTime } from './relativeTime'

const now = Date.parse('2026-03-10T12:00:00.000Z')
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString()

describe('last activity as a relative time', () => {
  it('says it in English in the largest whole unit', () => {
    expect(relativeTime(ago(20), now, 'en')).toBe('now')
    expect(relativeTime(ago(5 * 60), now, 'en')).toBe('5 min. ago')
    expect(relativeTime(ago(3 * 3600 + 59), now, 'en')).toBe('3 hr. ago')
    expect(relativeTime(ago(26 * 3600), now, 'en')).toBe('yesterday')
    expect(relativeTime(ago(15 * 24 * 3600), now, 'en')).toBe('2 wk. ago')
    expect(relativeTime(ago(400 * 24 * 3600), now, 'en')).toBe('last yr.')
  })

  it('says it in Japanese', () => {
    expect(relativeTime(ago(20), now, 'ja')).toBe('今')
    expect(relativeTime(ago(5 * 60), now, 'ja')).toBe('5 分前')
    expect(relativeTime(ago(26 * 3600), now, 'ja')).toBe('昨日')
  })

  it('reads times written with an offset, and gives nothing for a time it cannot read', () => {
    expect(relativeTime('2026-03-10T20:55:00.000+09:00', now, 'en')).toBe('5 min. ago')
    expect(relativeTime('not a time', now, 'en')).toBe('')
  })
})
