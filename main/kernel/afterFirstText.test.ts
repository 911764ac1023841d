import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MAX_WAIT_MS, awaitingFirstText, whenFree } from './afterFirstText'

describe('work put off while a reply waits for its first text', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('runs in the next turn when no reply is waiting', () => {
    const ran: string[] = []
    whenFree(() => ran.push('announce'))
    expect(ran).toEqual([])
    vi.advanceTimersToNextTimer()
    expect(ran).toEqual(['announce'])
  })

  it('waits for a reply whose request leaves later in the same turn', () => {
    const ran: string[] = []
    whenFree(() => ran.push('count'))
    const reply = awaitingFirstText()
    vi.advanceTimersByTime(MAX_WAIT_MS - 1)
    expect(ran).toEqual([])
    reply()
    vi.advanceTimersByTime(0)
    expect(ran).toEqual(['count'])
  })

  it('waits until every waiting reply has its first text, then runs in order', () => {
    const ran: string[] = []
    const first = awaitingFirstText()
    const second = awaitingFirstText()
    whenFree(() => ran.push('announce'))
    whenFree(() => ran.push('count'))
    first()
    first() // a second call of the same reply changes nothing
    vi.advanceTimersByTime(MAX_WAIT_MS - 1)
    expect(ran).toEqual([])
    second()
    vi.advanceTimersByTime(0)
    expect(ran).toEqual(['announce', 'count'])
  })

  it('runs after the longest wait even if the model has not started answering', () => {
    const ran: string[] = []
    const reply = awaitingFirstText()
    whenFree(() => ran.push('announce'))
    vi.advanceTimersByTime(MAX_WAIT_MS - 1)
    expect(ran).toEqual([])
    vi.advanceTimersByTime(1)
    expect(ran).toEqual(['announce'])
    reply()
    whenFree(() => ran.push('later'))
    vi.advanceTimersToNextTimer()
    expect(ran).toEqual(['announce', 'later'])
  })

  it('past the longest wait, runs one piece per turn while the reply still waits, the rest once it has its text', () => {
    const ran: string[] = []
    const reply = awaitingFirstText()
    for (const piece of ['announce', 'count', 'why', 'more']) whenFree(() => ran.push(piece))
    vi.advanceTimersByTime(MAX_WAIT_MS)
    expect(ran).toEqual(['announce'])
    vi.advanceTimersToNextTimer()
    expect(ran).toEqual(['announce', 'count'])
    reply()
    vi.advanceTimersToNextTimer()
    expect(ran).toEqual(['announce', 'count', 'why', 'more'])
  })

  it('keeps running the rest when one piece of work throws', () => {
    const ran: string[] = []
    const reply = awaitingFirstText()
    whenFree(() => {
      throw new Error('broken')
    })
    whenFree(() => ran.push('count'))
    reply()
    expect(() => vi.advanceTimersByTime(0)).toThrow('broken')
    vi.runOnlyPendingTimers()
    expect(ran).toEqual(['count'])
  })
})
