import { describe, expect, it } from 'vitest'
import { killDuringStory } from './killDuringStory'

// The kill_story suite, bounded: five kills of the app run from source (no build needed), each
// landing among story_init, play and story_save calls in flight. `npm run test:reliability`
// runs it at full size on the build.
describe('story work under kill -9 (bounded)', () => {
  it('loses no acknowledged story or save, leaves no temp files and no story standing nowhere', async () => {
    const r = await killDuringStory({ iterations: 5, seed: 37, fromSource: true })
    expect(r.iterations).toBe(5)
    expect(r.acknowledged).toBeGreaterThan(0)
    expect({ lost: r.lost, broken: r.broken, leftovers: r.leftovers, details: r.details }).toEqual({
      lost: 0,
      broken: 0,
      leftovers: 0,
      details: [],
    })
  }, 120_000)
})
