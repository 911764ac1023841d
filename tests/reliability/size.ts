/**
 * The suite comes in two sizes. `bounded` runs inside `npm test` (a few iterations, a few
 * hundred fuzz calls: well under two minutes on a busy 2-core machine); `full` is
 * `npm run test:reliability` (or LOOMVERSE_RELIABILITY=full), sized as issue 16's "Done when" asks.
 */
export type ReliabilitySize = 'bounded' | 'full'

export interface SuiteSize {
  size: ReliabilitySize
  /** kill -9 during acknowledged writes: start, hammer, kill, restart, verify. */
  killIterations: number
  /** kill -9 while a reply streams and summary jobs run. */
  workKillIterations: number
  /** kill -9 among story_init, play and story_save calls. */
  storyKillIterations: number
  fuzzCalls: number
  /** Every this many fuzz calls one goes over the real WebSocket instead of straight to the router. */
  fuzzWsEvery: number
  seed: number
}

export function suiteSize(env: NodeJS.ProcessEnv = process.env): SuiteSize {
  const size: ReliabilitySize = env.LOOMVERSE_RELIABILITY === 'full' ? 'full' : 'bounded'
  // A failing run prints its seed; LOOMVERSE_RELIABILITY_SEED replays it.
  const seed = env.LOOMVERSE_RELIABILITY_SEED ? Number(env.LOOMVERSE_RELIABILITY_SEED) : 16
  if (!Number.isInteger(seed) || seed < 0) {
    throw new Error(`LOOMVERSE_RELIABILITY_SEED must be a whole number ≥ 0, got "${env.LOOMVERSE_RELIABILITY_SEED}"`)
  }
  return size === 'full'
    ? {
        size,
        killIterations: 100,
        workKillIterations: 10,
        storyKillIterations: 40,
        fuzzCalls: 3_000,
        fuzzWsEvery: 5,
        seed,
      }
    : { size, killIterations: 3, workKillIterations: 1, storyKillIterations: 5, fuzzCalls: 300, fuzzWsEvery: 5, seed }
}
