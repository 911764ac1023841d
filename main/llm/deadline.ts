/**
 * An AbortSignal that also fires after `ms`, telling afterwards whether the time ran out
 * (so a timeout can be told apart from the caller's own stop). Call `clear()` once the
 * response has started: the deadline covers the wait for it, not the streaming that follows.
 */
export function deadline(ms: number, signal?: AbortSignal) {
  const timer = new AbortController()
  const handle = setTimeout(() => timer.abort(), ms)
  return {
    signal: signal ? AbortSignal.any([signal, timer.signal]) : timer.signal,
    timedOut: () => timer.signal.aborted,
    clear: () => clearTimeout(handle),
  }
}
