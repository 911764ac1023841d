import { describe, expect, it } from 'vitest'
import {
  changedFields,
  dayToEpoch,
  editableFields,
  epochToDay,
  nextDay,
  payloadTexts,
  reasonKey,
  shortText,
  whyParts,
} from './memoryText'

describe('memory text helpers', () => {
  it('edits only the fields that changed', () => {
    const payload = { user_text: 'hi', reply_text: 'hello', image_summary: null }
    expect(editableFields('episode', payload)).toEqual(['user_text', 'reply_text'])
    expect(changedFields(payload, { user_text: 'hi', reply_text: 'hello' })).toBeNull()
    expect(changedFields(payload, { user_text: 'hi!', reply_text: 'hello' })).toEqual({ user_text: 'hi!' })
  })

  it("reads an old version's text fields, skipping metadata", () => {
    const old = { summary_text: 'before', scope_key: 'd', _meta: { pin: 1 } }
    expect(payloadTexts('summary', old)).toEqual([['summary_text', 'before']])
  })

  it('maps date inputs to local midnights and back', () => {
    const day = dayToEpoch('2024-03-10')!
    expect(epochToDay(day)).toBe('2024-03-10')
    expect(epochToDay(nextDay(day))).toBe('2024-03-11')
    expect(dayToEpoch('')).toBeNull()
  })

  it('shortens long text to one line', () => {
    expect(shortText('a\n b', 10)).toBe('a b')
    expect(shortText('x'.repeat(20), 10)).toHaveLength(10)
  })
})

describe('reasonKey', () => {
  it('names the reasons the app writes, and leaves the user’s own words alone', () => {
    expect(reasonKey('reflect')).toEqual({ key: 'memory.reasons.reflect' })
    expect(reasonKey('superseded by fact 12')).toEqual({ key: 'memory.reasons.superseded', values: { id: '12' } })
    expect(reasonKey('sensitivity secret')).toEqual({ key: 'memory.reasons.sensitivity', values: { level: 'secret' } })
    expect(reasonKey('fixed the date')).toBeNull()
  })
})

describe('whyParts', () => {
  it('reads the Scheduler’s reasons into parts the UI can translate', () => {
    expect(whyParts('keyword #1 (2.31), vector #4 (0.52); linked to Hana (value 0.812)')).toEqual({
      parts: [
        { key: 'memory.whyParts.keyword', values: { rank: '1', score: '2.31' }, raw: 'keyword #1 (2.31)' },
        { key: 'memory.whyParts.vector', values: { rank: '4', score: '0.52' }, raw: 'vector #4 (0.52)' },
        { key: 'memory.whyParts.linked', values: { name: 'Hana' }, raw: 'linked to Hana' },
      ],
      value: '0.812',
    })
    expect(whyParts('facts (value 1.000)').parts).toEqual([{ key: 'memory.section.facts', raw: 'facts' }])
    expect(whyParts('next to #12 (value 0.2)').parts[0]).toMatchObject({ values: { id: '12' } })
    expect(whyParts('words #2 (3.10), sentence #1 (0.71); spoken by melanie; at the time named').parts).toEqual([
      { key: 'memory.whyParts.words', values: { rank: '2', score: '3.10' }, raw: 'words #2 (3.10)' },
      { key: 'memory.whyParts.sentence', values: { rank: '1', score: '0.71' }, raw: 'sentence #1 (0.71)' },
      { key: 'memory.whyParts.spoken', values: { name: 'melanie' }, raw: 'spoken by melanie' },
      { key: 'memory.whyParts.time', raw: 'at the time named' },
    ])
    expect(whyParts('something new').parts).toEqual([{ key: null, raw: 'something new' }])
  })
})
