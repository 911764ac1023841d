import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MemoryStatus } from '@shared/contract'
import { exchange, useLlmCore, type LlmHarness } from '../../../tests/support/llmCore'
import { everyMemoryJobReply } from '../../../tests/support/memoryJobReply'
import { openMemory } from './db'

// What memory costs a real model, through the real core, its memory worker and the fake
// server over HTTP: calls per exchange, and the breaker's one message the user can act on.

const setup = useLlmCore()
const LIGHT = 'light-model'

async function persona(h: LlmHarness, name = 'Mika'): Promise<{ personaId: string; flowId: string }> {
  const p = await h.call<{ id: string }>('create_persona', { name, lightweight_model: `openai:${LIGHT}` })
  const f = await h.call<{ id: string }>('create_flow', { name: 'talk', persona_id: p.id })
  return { personaId: p.id, flowId: f.id }
}

const say = (h: LlmHarness, flowId: string, prompt: string, parentId?: string) =>
  exchange(h, { flowId, prompt, reply: `About "${prompt}": I see.`, parentId })

/** Resolves once the persona's memory has no due or running job (its status-bar entry says done). */
async function idle(h: LlmHarness, personaId: string): Promise<void> {
  const done = h.next('job_progress', (d) => d.job_id === `memory:${personaId}` && d.state === 'done')
  const s = await h.call<MemoryStatus>('memory_status', { persona_id: personaId })
  if (s.jobs.due + s.jobs.running > 0) await done
}

describe('memory spend', () => {
  it('costs at most 40 calls of the lightweight model over 20 exchanges, shown as today’s spend', async () => {
    const h = await setup()
    h.fake.script({ provider: 'openai', model: LIGHT, reply: everyMemoryJobReply() })
    const { personaId, flowId } = await persona(h)
    // The same file the worker uses, through a connection of our own (WAL), opened once it exists.
    let memoryDb: ReturnType<typeof openMemory> | null = null
    try {
      let parent: string | undefined
      for (let i = 1; i <= 20; i++) {
        parent = await say(
          h,
          flowId,
          `Day note ${i}: I watered the tomatoes and read chapter ${i} of my novel.`,
          parent,
        )
        await idle(h, personaId)
        memoryDb ??= openMemory(join(h.core.paths.home, 'memory', `memory_${personaId}.db`))
        // Five quick exchanges, then five minutes pass: the coalesced jobs whose wait is over run.
        if (i % 5 === 0) {
          const due = h.next('job_progress', (d) => d.job_id === `memory:${personaId}` && d.state === 'done')
          memoryDb.db.prepare('UPDATE jobs SET run_after = run_after - 300 WHERE status = 0').run()
          await due
        }
      }
    } finally {
      memoryDb?.db.close()
    }
    const calls = h.fake.requests.filter((r) => r.model === LIGHT)
    const kinds = calls.map((r) => {
      const system = (r.body as { messages: Array<{ content: string }> }).messages[0]!.content
      if (system.startsWith('You read one memory')) return 'extract'
      if (system.startsWith('Summarise')) return 'summary'
      if (system.startsWith('From the latest exchanges')) return 'capsule'
      return 'other'
    })
    const count = (k: string) => kinds.filter((x) => x === k).length
    expect(count('extract')).toBe(20)
    expect(calls.length).toBeLessThanOrEqual(40)
    const status = await h.call<MemoryStatus>('memory_status', { persona_id: personaId })
    expect(status.spend.calls_today).toBe(calls.length - count('other')) // the pack's intent is not a job
    expect(status.jobs.failed).toBe(0)
    console.log(
      JSON.stringify({
        test: 'memory calls over 20 exchanges',
        total: calls.length,
        extract: count('extract'),
        summary: count('summary'),
        capsule: count('capsule'),
        other: count('other'),
      }),
    )
  }, 120_000)

  describe('the circuit breaker', () => {
    const lines = Array.from({ length: 4 }, (_, i) => ({
      id: `L${i}`,
      speaker: 'Mel',
      text: `Line ${i}: the lighthouse, the tide and the gulls.`,
      time: '2023-03-10T10:00:00Z',
    }))
    async function tripped(h: LlmHarness) {
      h.fake.script({ provider: 'openai', model: LIGHT, reply: 'Sure! The memory is about a lighthouse.' })
      const { personaId } = await persona(h, 'Rin')
      const path = join(h.core.paths.home, 'log.jsonl')
      writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'))
      const notice = h.next('job_progress', (d) => d.job_id === `memory-paused:${personaId}` && d.state === 'failed')
      await h.call('memory_import', { persona_id: personaId, path })
      return { personaId, notice: await notice }
    }

    it('pauses after three failed jobs with one message in the UI language, gone once the user pauses memory', async () => {
      const h = await setup()
      await h.call('update_settings', { language: 'ja' })
      const { personaId, notice } = await tripped(h)
      expect(notice).toMatchObject({ label: 'Rinの記憶' })
      expect(notice.error).toMatch(
        /^Rinの記憶を一時停止しました：軽量モデル openai:light-model が 3 回続けて失敗しました/,
      )
      expect(notice.error).toContain("the model's answer is not JSON")
      // The fourth job is held back as soon as the worker reaches it (the notice may come first).
      const status = () => h.call<MemoryStatus>('memory_status', { persona_id: personaId })
      await expect.poll(async () => (await status()).jobs, { timeout: 20_000 }).toMatchObject({ failed: 3, due: 0 })
      expect((await status()).paused).toMatchObject({ by: 'breaker', model: 'openai:light-model' })
      // Three jobs, each the answer and one request to fix it; the fourth waits without a call.
      expect(h.fake.requests.filter((r) => r.model === LIGHT)).toHaveLength(6)
      // The failed-jobs entry stays out of the way while the breaker's message speaks.
      const failedEntries = h.events.filter(
        (e) => e.event === 'job_progress' && (e.data as { job_id: string }).job_id === `memory-failed:${personaId}`,
      )
      expect(failedEntries.at(-1)?.data).toMatchObject({ state: 'done' })

      const gone = h.next('job_progress', (d) => d.job_id === `memory-paused:${personaId}` && d.state === 'done')
      const paused = await h.call<MemoryStatus>('memory_set_paused', { persona_id: personaId, paused: true })
      await gone
      expect(paused.paused).toEqual({ by: 'user', reason: null, model: null })
    }, 30_000)

    it('resumes on its own once the persona’s lightweight model is changed, and runs the jobs on the new one', async () => {
      const h = await setup()
      const { personaId, notice } = await tripped(h)
      expect(notice.error).toMatch(/^Memory of Rin is paused: the lightweight model openai:light-model failed 3 times/)
      // The notice stays on screen until acted on: switching language says it again in the new one.
      // (Waits for the Japanese one: the held-back fourth job may repeat the English notice first.)
      const reworded = h.next(
        'job_progress',
        (d) => d.job_id === `memory-paused:${personaId}` && d.state === 'failed' && d.label === 'Rinの記憶',
      )
      await h.call('update_settings', { language: 'ja' })
      expect(await reworded).toMatchObject({ label: 'Rinの記憶' })
      expect((await reworded).error).toMatch(/^Rinの記憶を一時停止しました/)
      h.fake.script({ provider: 'openai', model: 'better-light', reply: everyMemoryJobReply() })
      const gone = h.next('job_progress', (d) => d.job_id === `memory-paused:${personaId}` && d.state === 'done')
      await h.call('update_persona', { id: personaId, lightweight_model: 'openai:better-light' })
      await gone
      // The fourth job may have been held back before the change or not yet claimed: either way all four finish.
      const status = () => h.call<MemoryStatus>('memory_status', { persona_id: personaId })
      // (Counted by the model's calls: the built-in word model's embedding jobs are done jobs too.)
      const calls = () => h.fake.requests.filter((r) => r.model === 'better-light').length
      await expect.poll(calls, { timeout: 20_000 }).toBe(4)
      expect((await status()).jobs).toMatchObject({ failed: 0 })
      expect((await status()).paused.by).toBeNull()
    }, 30_000)
  })
})
