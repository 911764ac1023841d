import { describe, expect, it } from 'vitest'
import { fuzzContract } from './contractFuzz'
import { suiteSize } from './size'

const size = suiteSize()

describe(`contract fuzzer (${size.size})`, () => {
  it(
    'answers every random, malformed and boundary input to every method with a client error or a value, never internal',
    { timeout: size.size === 'full' ? 60 * 60_000 : 120_000 },
    async () => {
      const r = await fuzzContract({ calls: size.fuzzCalls, seed: size.seed, wsEvery: size.fuzzWsEvery })
      expect(r.calls).toBe(size.fuzzCalls)
      expect(r.envelopes).toBeGreaterThan(0)
      expect(r.via_ws).toBeGreaterThan(0)
      expect(r.ok).toBeGreaterThan(0) // plausible inputs reach the handlers, not only the validator
      expect({
        internal: r.internal_errors,
        missing: r.missing_replies,
        crashes: r.crashes,
        malformed: r.malformed_replies,
        failures: r.failures,
      }).toEqual({ internal: 0, missing: 0, crashes: 0, malformed: 0, failures: [] })
    },
  )
})
