import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../tests/support/seededRandom'
import { tuning } from './tuning'
import { bestHits } from './wordRanking'

// The feedback words come from the best few hits, picked without sorting every hit: they must
// be the ones the full ranking puts first.

describe('the best word hits', () => {
  it('are the first of the full ranking (score, then the newer; far below the best left out), for 2,000 random sets', () => {
    const next = seededRandom(20261125)
    for (let i = 0; i < 2000; i++) {
      const scores = new Map<number, number>()
      const n = Math.floor(next() * 40)
      // Few distinct scores, so ties are common.
      for (let j = 0; j < n; j++)
        scores.set(Math.floor(next() * 100), Math.floor(next() * 8) / 2 + (next() < 0.1 ? 0 : 0.01))
      const k = 1 + Math.floor(next() * 6)
      const sorted = [...scores.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])
      const floor = (sorted[0]?.[1] ?? 0) * tuning.wordFloor
      const want = sorted
        .filter(([, s]) => s >= floor)
        .slice(0, k)
        .map(([id]) => id)
      expect(bestHits(scores, k), `set ${i}`).toEqual(want)
    }
  })
})
