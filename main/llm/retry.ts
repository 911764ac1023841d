import { LlmError } from './llmError'
import type { ChatEvent } from './types'

export interface RetryOptions {
  attempts?: number
  baseDelayMs?: number
  signal?: AbortSignal
  /** Told before each wait, so the UI can say "rate limited, retrying in 4 s". */
  onRetry?: (delayMs: number, error: LlmError, attempt: number) => void
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/**
 * Opens a chat stream, retrying with exponential backoff (or the provider's Retry-After)
 * while nothing has arrived yet. Once the first event is out, a failure is final: the user
 * has seen text, and a silent restart would duplicate or contradict it.
 */
export async function* chatWithRetry(
  open: () => AsyncIterable<ChatEvent>,
  options: RetryOptions = {},
): AsyncGenerator<ChatEvent> {
  const attempts = options.attempts ?? 4
  const base = options.baseDelayMs ?? 1000
  const sleep = options.sleep ?? abortableSleep
  for (let attempt = 1; ; attempt++) {
    const it = open()[Symbol.asyncIterator]()
    let first: IteratorResult<ChatEvent>
    try {
      first = await it.next()
    } catch (e) {
      if (!(e instanceof LlmError) || !e.retryable || attempt >= attempts || options.signal?.aborted) throw e
      const delay = e.retryAfterMs ?? base * 2 ** (attempt - 1)
      options.onRetry?.(delay, e, attempt)
      await sleep(delay, options.signal)
      continue
    }
    if (first.done) return
    yield first.value
    for (;;) {
      const next = await it.next()
      if (next.done) return
      yield next.value
    }
  }
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError('aborted', 'stopped'))
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(new LlmError('aborted', 'stopped'))
    })
  })
}
