import type { Core } from '../main/core'

/** The p-th percentile of unsorted samples, to 0.01 ms. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2))
}

/** Calls a contract method as the app would, throwing the error it answers with. */
export function callerOf(core: Core) {
  return async <T>(method: string, input: unknown): Promise<T> => {
    const r = await core.router.call(method, input, { transport: 'internal' })
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`)
    return r.value as T
  }
}
