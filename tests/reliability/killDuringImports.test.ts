import { describe, expect, it } from 'vitest'
import { killDuringImports } from './killDuringImports'

// The kill_imports suite, bounded: three kills of the app run from source (no build needed),
// among an import's slices or just after its answer. `npm run test:reliability` runs it at full
// size on the build.
describe('imports under kill -9 (bounded)', () => {
  it('loses no acknowledged conversation, shows none half imported, and takes a cut import again whole', async () => {
    const r = await killDuringImports({ iterations: 3, seed: 37, fromSource: true })
    expect(r.iterations).toBe(3)
    // Killed among the slices twice (unless the import outran the kill), and once after the answer.
    expect(r.acknowledged).toBeGreaterThanOrEqual(1)
    expect(r.acknowledged + r.cut).toBe(3)
    expect({
      lost: r.lost,
      partial: r.partial,
      not_retried: r.not_retried,
      corrupt: r.corrupt,
      details: r.details,
    }).toEqual({ lost: 0, partial: 0, not_retried: 0, corrupt: 0, details: [] })
  }, 300_000)
})
