import { describe, expect, it } from 'vitest'
import { LlmError } from './llmError'
import { openaiConnector } from './openaiConnector'
import { abortableSleep, chatWithRetry, type RetryOptions } from './retry'
import { ask, deltas, useFakeLlm } from '../../tests/support/llm/connectorHarness'
import type { ChatEvent } from './types'

// Driven through the real OpenAI connector against the fake server, so the errors are the
// ones production sees; only the waiting is replaced where a test does not need real time.

const fake = useFakeLlm()
const chatRequests = () => fake().requests.filter((r) => r.path === '/v1/chat/completions').length

/** Runs chatWithRetry with a sleep that only records the delays asked for. */
async function run(options: RetryOptions = {}, signal?: AbortSignal) {
  const delays: number[] = []
  const events: ChatEvent[] = []
  let error: unknown = null
  const sleep = options.sleep ?? (async (ms: number) => void delays.push(ms))
  const openai = openaiConnector({ provider: 'openai', apiKey: 'sk-test', baseURL: `${fake().url}/v1` })
  try {
    const stream = chatWithRetry(() => openai.chat({ model: 'gpt-4o-mini', messages: ask('hi'), signal }), {
      ...options,
      sleep,
      signal,
    })
    for await (const event of stream) events.push(event)
  } catch (e) {
    error = e
  }
  return { delays, events, error, text: deltas(events).join('') }
}

describe('chatWithRetry', () => {
  it('retries a retryable error that comes before the first event, honouring Retry-After', async () => {
    fake().script({ provider: 'openai', status: 429, retryAfterMs: 2000, times: 1 })
    const retries: Array<[number, string, number]> = []
    const { delays, text, error } = await run({ onRetry: (ms, e, attempt) => retries.push([ms, e.failure, attempt]) })
    expect(error).toBeNull()
    expect(text).toBe('echo: hi')
    expect(delays).toEqual([2000])
    expect(retries).toEqual([[2000, 'rate_limited', 1]])
    expect(chatRequests()).toBe(2)
  })

  it('backs off exponentially when the provider names no delay, and gives up after `attempts`', async () => {
    fake().script({ provider: 'openai', status: 503 })
    const { delays, error } = await run({ attempts: 3, baseDelayMs: 100 })
    expect(error).toMatchObject({ failure: 'unavailable' })
    expect(delays).toEqual([100, 200])
    expect(chatRequests()).toBe(3)
  })

  it('does not retry an error that retrying cannot fix', async () => {
    fake().script({ provider: 'openai', status: 401 })
    const { delays, error } = await run()
    expect(error).toMatchObject({ failure: 'auth' })
    expect(delays).toEqual([])
    expect(chatRequests()).toBe(1)
  })

  it('never retries once a delta has been delivered', async () => {
    fake().script({ provider: 'openai', chunks: ['one ', 'two ', 'three'], disconnectAfterChunks: 1, times: 1 })
    const { delays, error, text } = await run()
    expect(text).toBe('one ')
    expect(error).toBeInstanceOf(LlmError)
    expect((error as LlmError).retryable).toBe(true)
    expect(delays).toEqual([])
    expect(chatRequests()).toBe(1)
  })

  it('stops waiting and stops retrying when aborted', async () => {
    fake().script({ provider: 'openai', status: 429, retryAfterMs: 5000 })
    const controller = new AbortController()
    // The real, abortable sleep: the 5 s wait must end at the abort, not run its course.
    const waits: Array<'slept' | 'cut'> = []
    const sleep = (ms: number, signal?: AbortSignal) => {
      const wait = abortableSleep(ms, signal)
      wait.then(
        () => waits.push('slept'),
        () => waits.push('cut'),
      )
      controller.abort() // the user presses Stop while the retry waits
      return wait
    }
    const { error } = await run({ sleep }, controller.signal)
    expect(error).toMatchObject({ failure: 'aborted' })
    expect(waits).toEqual(['cut'])
    expect(chatRequests()).toBe(1)
  })

  it('does not retry a retryable error when the caller has already aborted', async () => {
    // A stand-in source: the abort and the retryable error must coincide exactly.
    const controller = new AbortController()
    let opened = 0
    const delays: number[] = []
    const failing = (): AsyncIterable<ChatEvent> => ({
      [Symbol.asyncIterator]: () => ({
        next: () => {
          opened++
          controller.abort()
          return Promise.reject(new LlmError('unavailable', 'could not reach OpenAI'))
        },
      }),
    })
    const stream = chatWithRetry(failing, { signal: controller.signal, sleep: async (ms) => void delays.push(ms) })
    await expect(stream.next()).rejects.toMatchObject({ failure: 'unavailable' })
    expect(opened).toBe(1)
    expect(delays).toEqual([])
  })
})
