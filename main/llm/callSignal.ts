/**
 * A signal for one SDK call that aborts when `parent` does, and lets go of `parent` once the
 * call is over. The openai SDK adds an 'abort' listener to the signal it is given and never
 * removes it: handed a long-lived signal (the job worker's, one per thread), every call left
 * one behind — a leak, and MaxListenersExceededWarning after ten jobs.
 */
export function callSignal(parent?: AbortSignal): { signal: AbortSignal | undefined; release(): void } {
  if (!parent) return { signal: undefined, release: () => {} }
  const own = new AbortController()
  if (parent.aborted) own.abort(parent.reason)
  const forward = () => own.abort(parent.reason)
  parent.addEventListener('abort', forward, { once: true })
  return { signal: own.signal, release: () => parent.removeEventListener('abort', forward) }
}
