import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MAX_WAIT_MS, awaitingFirstText, flushed, whenFree } from './afterFirstText'

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

  it('flushed: what was queued before runs in the next turn though another reply still waits, and what came after waits', async () => {
    const ran: string[] = []
    const other = awaitingFirstText()
    whenFree(() => ran.push('why'))
    const flush = flushed().then(() => ran.push('flushed'))
    whenFree(() => ran.push('later'))
    await vi.advanceTimersByTimeAsync(0)
    await flush
    expect(ran).toEqual(['why', 'flushed'])
    // The work after the flush waits for the other reply as any work does (not past the longest wait).
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 1)
    expect(ran).toEqual(['why', 'flushed'])
    other()
    vi.advanceTimersByTime(0)
    expect(ran).toEqual(['why', 'flushed', 'later'])
  })

  it('flushed: resolves in the next turn with nothing queued, and after work queued with no reply waiting', async () => {
    const ran: string[] = []
    const empty = flushed().then(() => ran.push('empty'))
    await vi.advanceTimersByTimeAsync(0)
    await empty
    whenFree(() => ran.push('announce'))
    const flush = flushed().then(() => ran.push('flushed'))
    await vi.advanceTimersByTimeAsync(0)
    await flush
    expect(ran).toEqual(['empty', 'announce', 'flushed'])
  })

  it('flushed: resolves though a piece queued before it throws, the others run', async () => {
    const ran: string[] = []
    const other = awaitingFirstText()
    whenFree(() => {
      throw new Error('broken')
    })
    whenFree(() => ran.push('count'))
    const flush = flushed().then(() => ran.push('flushed'))
    expect(() => vi.advanceTimersByTime(0)).toThrow('broken')
    await vi.advanceTimersToNextTimerAsync()
    await flush
    expect(ran).toEqual(['count', 'flushed'])
    other()
    vi.runOnlyPendingTimers()
  })
})
