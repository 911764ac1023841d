import { describe, expect, it } from 'vitest'
import type { UnitRow } from '../store/store'
import { hitReason, note, type Hit } from './hits'

// A find's reasons are written only when the inspector reads them (hitReason): they must read
// as they did when each step wrote them at once.

const unit = { id: 7 } as UnitRow
const ranked = (id: number) => (id === 7 ? 'words #1 (2.00), vector #3 (0.81)' : '')

describe('hitReason', () => {
  it("reads a ranking's find by its rankings, then what was noted after", () => {
    const hit: Hit = { unit, score: 1 }
    note(hit, ', tells of the day named #2')
    note(hit, '; spoken by caroline')
    note(hit, '; at the time named')
    expect(hitReason(hit, ranked)).toBe(
      'words #1 (2.00), vector #3 (0.81), tells of the day named #2; spoken by caroline; at the time named',
    )
  })

  it('reads a find no ranking brought by how it came', () => {
    const told: Hit = { unit, score: 0, came: '' }
    note(told, ', tells of the day named #1')
    expect(hitReason(told, ranked)).toBe('tells of the day named #1')
    const linked: Hit = { unit, score: 0, came: '' }
    note(linked, '; spoken by caroline')
    expect(hitReason(linked, ranked)).toBe('; spoken by caroline')
    expect(hitReason({ unit, score: 0, came: 'next to #6' }, ranked)).toBe('next to #6')
  })
})
