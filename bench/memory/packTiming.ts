import { words } from './syntheticMemory'

// How the memory benches time a MemoryPack (run.ts at 10k and 100k units, millionUnits.ts at 1M):
// the same warm-up and the same percentiles, so their lines compare.

export function pct(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(3)
}

export function timed(n: number, fn: (i: number) => void): number[] {
  const out: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    fn(i)
    out.push(performance.now() - t)
  }
  return out
}

/**
 * A pack's times as the running app sees them: the first pack after start reads the indexes in
 * (reported on its own), and the next few read the postings of words not asked before; both
 * are done with before the packs that are timed, on queries of their own.
 */
export function steadyPacks(
  measure: (query: string) => void,
  queries: string[],
): { first_pack_ms: number; ms: number[] } {
  const t = performance.now()
  measure(FIRST_QUERY)
  const first = +(performance.now() - t).toFixed(3)
  for (const q of WARM_UP_QUERIES) measure(q)
  return { first_pack_ms: first, ms: timed(queries.length, (i) => measure(queries[i]!)) }
}
export const FIRST_QUERY = 'What did we talk about last time?'
// Not from benchQueries: its seeded draws also make the synthetic units, which must not change.
export const WARM_UP_QUERIES = words
  .slice(0, 20)
  .map((w, i) => `What did I say about ${w} and ${words[words.length - 1 - i]} last time?`)
export const WARM_UP_NOTE =
  'timed after the first pack (first_pack_ms: the indexes read in) and 20 warm-up packs on other queries'
