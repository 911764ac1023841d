import { beforeAll, describe, expect, it } from 'vitest'
import { buildAppOnce } from './builtApp'
import { frames } from './corpora'
import { sendFrames } from './frameCorpusRun'
import { killDuringWork } from './killDuringWork'
import { killDuringWrites } from './killDuringWrites'
import { suiteSize } from './size'

// The reliability checks that run the built app as a process (issue 16), at the size
// LOOMVERSE_RELIABILITY asks for: bounded inside `npm test`, full from `npm run test:reliability`.
const size = suiteSize()
const timeout = size.size === 'full' ? 60 * 60_000 : 150_000

describe(`the built app under kill -9 and malformed frames (${size.size})`, () => {
  beforeAll(() => buildAppOnce(), 180_000)

  it('loses no acknowledged write and corrupts no database when killed mid-write', { timeout }, async () => {
    const r = await killDuringWrites({ iterations: size.killIterations, seed: size.seed })
    expect(r.iterations).toBe(size.killIterations)
    expect(r.acknowledged).toBeGreaterThan(0)
    expect({ lost: r.lost, corrupt: r.corrupt, details: r.details }).toEqual({ lost: 0, corrupt: 0, details: [] })
  })

  it(
    'leaves no reply streaming and no summary job held after a kill mid-reply and mid-batch',
    { timeout },
    async () => {
      const r = await killDuringWork({ iterations: size.workKillIterations })
      // The kill must have landed on held work, or the check proves nothing.
      expect(r.jobs_running_at_kill).toBeGreaterThan(0)
      expect({ streaming_left: r.streaming_left, jobs_stuck: r.jobs_stuck, details: r.details }).toEqual({
        streaming_left: 0,
        jobs_stuck: 0,
        details: [],
      })
    },
  )

  it('stays up and keeps answering through every frame of the malformed-frame corpus', { timeout }, async () => {
    const r = await sendFrames(frames)
    expect(r.frames).toBe(frames.length)
    expect({ crashes: r.host_crashes, unanswered: r.good_client_unanswered, details: r.details }).toEqual({
      crashes: 0,
      unanswered: 0,
      details: [],
    })
  })
})
