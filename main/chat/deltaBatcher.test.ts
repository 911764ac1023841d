import { describe, expect, it, vi } from 'vitest'
import { DeltaBatcher } from './deltaBatcher'

describe('delta batcher', () => {
  it('sends the first piece at once, then one batch per interval, losing nothing', () => {
    vi.useFakeTimers()
    const sent: string[] = []
    const batcher = new DeltaBatcher(50, (t) => sent.push(t))
    batcher.push('Hel')
    expect(sent).toEqual(['Hel'])
    for (const piece of ['lo', ' wo', 'rld']) batcher.push(piece)
    expect(sent).toEqual(['Hel'])
    vi.advanceTimersByTime(50)
    expect(sent).toEqual(['Hel', 'lo world'])
    batcher.push('!')
    batcher.flush()
    expect(sent.join('')).toBe('Hello world!')
    vi.useRealTimers()
  })
})
