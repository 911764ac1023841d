import { describe, expect, it } from 'vitest'
import type { MemoryJob } from '@shared/contract'
import { relativeTime, waitingUntil } from './jobText'

const job = (patch: Partial<MemoryJob>): MemoryJob => ({
  id: 1,
  kind: 'reflect',
  status: 'queued',
  tries: 0,
  last_error: null,
  unit_id: 1,
  scope: null,
  run_after: 1000,
  created_at: 1000,
  updated_at: 1000,
  ...patch,
})

describe('job text helpers', () => {
  it('says how long ago or ahead, in the largest unit that fits', () => {
    expect(relativeTime(1000, 1000, 'en')).toBe('now')
    expect(relativeTime(1000, 1045, 'en')).toBe('45 seconds ago')
    expect(relativeTime(1000, 1000 + 3 * 60, 'en')).toBe('3 minutes ago')
    expect(relativeTime(1000 + 2 * 3600, 1000, 'en')).toBe('in 2 hours')
    expect(relativeTime(1000, 1000 + 86_400, 'en')).toBe('yesterday')
    expect(relativeTime(1000, 1000 + 3 * 60, 'ja')).toBe('3 分前')
  })

  it('tells only queued jobs held back to a later time', () => {
    expect(waitingUntil(job({ run_after: 1060 }), 1000)).toBe(1060)
    expect(waitingUntil(job({ run_after: 1000 }), 1000)).toBeNull()
    expect(waitingUntil(job({ status: 'failed', run_after: 1060 }), 1000)).toBeNull()
  })
})
