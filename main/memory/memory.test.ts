import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { MemoryJob, MemoryPack, MemoryStatus, MemoryUnit } from '@shared/contract'
import { exchange, useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { everyMemoryJobReply } from '../../tests/support/memoryJobReply'

const setup = useLlmCore()

const JOB_REPLY = everyMemoryJobReply()

async function persona(h: LlmHarness): Promise<{ personaId: string; flowId: string }> {
  h.fake.script({ provider: 'openai', model: 'light-model', reply: JOB_REPLY })
  const p = await h.call<{ id: string }>('create_persona', { name: 'Mika', lightweight_model: 'openai:light-model' })
  const f = await h.call<{ id: string }>('create_flow', { name: 'talk', persona_id: p.id })
  return { personaId: p.id, flowId: f.id }
}

const say = (h: LlmHarness, flowId: string, prompt: string, reply: string, parentId?: string) =>
  exchange(h, { flowId, prompt, reply, parentId })

describe('memory in the chat', () => {
  it('records exchanges as episodes and remembers only the branch being answered', async () => {
    const h = await setup()
    const { personaId, flowId } = await persona(h)
    // Two forks of one conversation (a second root would be another conversation, remembered).
    const r = await say(h, flowId, 'Hello again, I have news.', 'Tell me!')
    const a = await say(h, flowId, 'I adopted a cat named Pepper today.', 'Congratulations on Pepper!', r)
    const b = await say(h, flowId, 'I adopted a dog named Biscuit today.', 'Biscuit is a lovely name!', r)
    const { units } = await h.call<{ units: MemoryUnit[] }>('memory_list_units', {
      persona_id: personaId,
      kind: 'episode',
    })
    expect(units.map((u) => [u.origin_node_id, u.source, u.state])).toEqual([
      [b, 'chat', 'raw'],
      [a, 'chat', 'raw'],
      [r, 'chat', 'raw'],
    ])

    // Continue branch A: the pack sent with the reply holds Pepper, never Biscuit.
    const c = await say(h, flowId, 'Which pet did I adopt?', 'A cat.', a)
    const system = (
      h.fake.requests.filter((r) => r.model === 'gpt-4o-mini').at(-1)!.body as {
        messages: Array<{ role: string; content: string }>
      }
    ).messages[0]!.content
    expect(system).toContain('# Memory')
    expect(system).toContain('cat named Pepper')
    expect(system).not.toContain('Biscuit')
    const stored = await h.call<Array<{ pack: MemoryPack }>>('memory_packs_for_node', {
      persona_id: personaId,
      node_id: c,
    })
    expect(stored).toHaveLength(1)
    const refs = stored[0]!.pack.sections.flatMap((s) => s.items.flatMap((i) => i.refs))
    expect(refs).toContainEqual({ type: 'node', id: a, flow_id: flowId })

    // Branch jobs per fork: R, A then C (on A) coalesce into one, B has its own — for the
    // capsule and for each of the day's, the week's and the relationship's summaries.
    const { jobs } = await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', { persona_id: personaId })
    expect(jobs.filter((j) => j.kind === 'capsule').map((j) => j.status)).toEqual(['queued', 'queued'])
    // Each fork's capsule reads only its own turns: A and C on one, B alone on the other.
    const file = new Database(join(h.core.paths.memory, `memory_${personaId}.db`), { readonly: true })
    const capsules = (
      file.prepare("SELECT payload_json FROM jobs WHERE kind = 'capsule' ORDER BY id").pluck().all() as string[]
    ).map((json) => {
      const ids = (JSON.parse(json) as { unit_ids: number[] }).unit_ids
      return ids.map((id) => file.prepare('SELECT origin_node_id FROM units WHERE id = ?').pluck().get(id))
    })
    file.close()
    expect(capsules).toEqual([
      [r, a, c],
      [r, b],
    ])
    const scopes = jobs.filter((j) => j.kind === 'summarize').map((j) => j.scope)
    expect(scopes.filter((s) => s === 'relationship')).toHaveLength(2)
    expect(new Set(scopes).size).toBe(3)
    expect(scopes).toHaveLength(6)

    // Switching to branch B switches what is remembered.
    const onB = await h.call<MemoryPack>('memory_pack', {
      persona_id: personaId,
      query: 'Which pet did I adopt?',
      budget_tokens: 500,
      node_id: b,
    })
    expect(onB.text).toContain('Biscuit')
    expect(onB.text).not.toContain('Pepper')
    // Without a node (the inspector), both are there.
    const all = await h.call<MemoryPack>('memory_pack', { persona_id: personaId, query: 'adopted', budget_tokens: 500 })
    expect(all.text).toContain('Biscuit')
    expect(all.text).toContain('Pepper')
  })

  it('queues a person’s summary over the episodes of one branch once it names them three times', async () => {
    const h = await setup()
    const hana = { name: 'Hana', type: 'person', aliases: [], role: 'subject' }
    h.fake.script({
      provider: 'openai',
      model: 'light-hana',
      reply: everyMemoryJobReply({ entities: [hana] }),
    })
    const p = await h.call<{ id: string }>('create_persona', { name: 'Mika', lightweight_model: 'openai:light-hana' })
    const f = await h.call<{ id: string }>('create_flow', { name: 'talk', persona_id: p.id })
    const a1 = await say(h, f.id, 'Hana called me.', 'Nice!')
    const a2 = await say(h, f.id, 'Hana and I had lunch.', 'Lovely.', a1)
    await say(h, f.id, 'Hana got a new job.', 'Great news.', a2)
    const b1 = await say(h, f.id, 'Hana moved abroad.', 'Oh.') // another fork: one mention so far
    const personJobs = async () => {
      let jobs: MemoryJob[] = []
      await expect
        .poll(
          async () => {
            jobs = (await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', { persona_id: p.id })).jobs
            return jobs.some((j) => j.kind === 'extract' && j.status !== 'done')
          },
          { timeout: 20_000 },
        )
        .toBe(false)
      return jobs.filter((j) => j.scope === 'person:1').map((j) => j.status)
    }
    // One, for the branch with three mentions; the one-mention fork gets none yet.
    expect(await personJobs()).toEqual(['queued'])
    // Once the other fork names her three times too, it gets its own.
    const b2 = await say(h, f.id, 'Hana sent photos from Lisbon.', 'Beautiful.', b1)
    await say(h, f.id, 'Hana visits next month.', 'Fun!', b2)
    expect(await personJobs()).toEqual(['queued', 'queued'])
  }, 30_000)

  it('lets the user edit, pin, archive, mark secret, promote and delete units', async () => {
    const h = await setup()
    const { personaId } = await persona(h)
    const added = await h.call<{ unit: MemoryUnit }>('memory_add_unit', {
      persona_id: personaId,
      kind: 'fact',
      text: 'allergic to peanuts',
    })
    const id = added.unit.id
    const edited = await h.call<{ versions: Array<{ payload: Record<string, unknown> }> }>('memory_edit_unit', {
      persona_id: personaId,
      unit_id: id,
      payload: { object_text: 'allergic to peanuts and shellfish' },
      reason: 'more detail',
    })
    expect(edited.versions.map((v) => v.payload.object_text)).toEqual([
      'allergic to peanuts',
      'allergic to peanuts and shellfish',
    ])
    expect(await h.call('memory_pin_unit', { persona_id: personaId, unit_id: id, pin: true })).toMatchObject({
      pin: true,
    })
    const pack = () =>
      h.call<MemoryPack>('memory_pack', { persona_id: personaId, query: 'dinner ideas', budget_tokens: 300 })
    expect((await pack()).text).toContain('shellfish') // pinned facts ride along
    await h.call('memory_set_sensitivity', { persona_id: personaId, unit_id: id, sensitivity: 'secret' })
    expect((await pack()).text).not.toContain('shellfish')
    await h.call('memory_set_sensitivity', { persona_id: personaId, unit_id: id, sensitivity: 'normal' })
    await h.call('memory_archive_unit', { persona_id: personaId, unit_id: id, archived: true })
    expect((await pack()).text).not.toContain('shellfish')
    expect(await h.call('memory_set_global', { persona_id: personaId, unit_id: id, global: true })).toMatchObject({
      global: true,
      state: 'archived',
    })
    expect(await h.call('memory_delete_unit', { persona_id: personaId, unit_id: id })).toEqual({ deleted: true })
    await expect(h.call('memory_get_unit', { persona_id: personaId, unit_id: id })).rejects.toThrow(/not_found/)
    await expect(h.call('memory_pack', { persona_id: 'nobody', query: 'x', budget_tokens: 10 })).rejects.toThrow(
      /not_found/,
    )

    // What a program adds by hand reaches the model as written: a sentence as it is, a phrase as the user's.
    for (const text of ['The user prefers quiet cafés to busy restaurants.', 'likes jazz on rainy days'])
      await h.call('memory_add_unit', { persona_id: personaId, kind: 'fact', text, pin: true })
    const facts = (await pack()).text
    expect(facts).toContain('- The user prefers quiet cafés to busy restaurants.')
    expect(facts).toContain('- user: likes jazz on rainy days')
    expect(facts).not.toMatch(/user is (The|likes)/)
  })
})

describe('a persona made while the app runs', () => {
  it('has its memory made before its first message, not in its first reply', async () => {
    const h = await setup()
    const file = (id: string) => join(h.core.paths.memory, `memory_${id}.db`)
    const { personaId } = await persona(h)
    await expect.poll(() => existsSync(file(personaId)), { timeout: 10_000 }).toBe(true)
    // A persona gone before its turn comes gets none.
    const gone = await h.call<{ id: string }>('create_persona', { name: 'Brief' })
    await h.call('delete_persona', { id: gone.id })
    const other = await h.call<{ id: string }>('create_persona', { name: 'Later' })
    await expect.poll(() => existsSync(file(other.id)), { timeout: 10_000 }).toBe(true)
    expect(existsSync(file(gone.id))).toBe(false)
  })
})

describe('memory_import', () => {
  function file(h: LlmHarness, lines: unknown[]): string {
    const path = join(h.core.paths.home, 'chat.jsonl')
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'))
    return path
  }
  const lines = [
    { id: 'D1:1', speaker: 'Caroline', text: 'I joined a pottery class in March.', time: '2023-03-10T10:00:00Z' },
    { id: 'D1:2', speaker: 'Melanie', text: 'My kids love the beach in summer.', time: '2023-03-10T10:01:00Z' },
  ]

  it('with no_llm: episodes, search and vectors only, no LLM jobs (the built-in word model embeds)', async () => {
    const h = await setup()
    const { personaId } = await persona(h)
    const result = await h.call('memory_import', { persona_id: personaId, path: file(h, lines), no_llm: true })
    expect(result).toEqual({ imported: 2, skipped: 0, unreadable: 0, errors: [], jobs: 0 })
    expect(await h.call('memory_status', { persona_id: personaId })).toMatchObject({ units: 2 })
    const { jobs } = await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', { persona_id: personaId })
    expect(jobs.map((j) => j.kind)).toEqual(['embed'])
    const pack = await h.call<MemoryPack>('memory_pack', {
      persona_id: personaId,
      query: 'What class did Caroline join?',
      budget_tokens: 200,
    })
    expect(pack.sections.flatMap((s) => s.items.flatMap((i) => i.refs))).toContainEqual({
      type: 'external',
      id: 'D1:1',
    })
  })

  it('imports a long log in steps: progress in the status bar, the event loop never held long', async () => {
    const h = await setup()
    const { personaId } = await persona(h)
    const long = Array.from({ length: 6000 }, (_, i) => ({
      id: `L${i}`,
      speaker: i % 2 ? 'Mel' : 'Caro',
      text: `Line ${i} about the garden, the river and the old bridge.`,
      time: 1_700_000_000 + i * 60,
    }))
    const progress: number[] = []
    const off = h.core.bus.listen((event, data) => {
      const d = data as { job_id: string; done: number }
      if (event === 'job_progress' && d.job_id === `memory-import:${personaId}`) progress.push(d.done)
    })
    // Other work gets turns while the import runs: a timer keeps firing between its steps.
    let turns = 0
    const tick = setInterval(() => turns++, 0)
    const result = await h.call('memory_import', { persona_id: personaId, path: file(h, long), no_llm: true })
    clearInterval(tick)
    off()
    expect(result).toMatchObject({ imported: 6000, skipped: 0 })
    expect(progress.length).toBeGreaterThan(1)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.at(-1)).toBe(6000)
    // In one transaction this import would hold the loop until it ended: not one turn for anyone else.
    expect(turns).toBeGreaterThanOrEqual(progress.length)
  }, 30_000)

  it('with the model: the memory worker runs every episode job', async () => {
    const h = await setup()
    const { personaId } = await persona(h)
    const result = await h.call<{ jobs: number }>('memory_import', { persona_id: personaId, path: file(h, lines) })
    expect(result.jobs).toBe(2 * 1 + 3) // one extraction per episode; daily, weekly and relationship summaries (delayed)
    const status = () => h.call<MemoryStatus>('memory_status', { persona_id: personaId })
    await expect.poll(async () => (await status()).jobs, { timeout: 20_000 }).toMatchObject({ done: 2, failed: 0 })
    // What it cost, for the memory panel: one call per episode, and the tokens the provider counted.
    const { spend } = await status()
    expect(spend).toMatchObject({ calls_today: 2, daily_token_budget: null })
    expect(spend.tokens_today).toBeGreaterThan(0)
    const { units } = await h.call<{ units: MemoryUnit[] }>('memory_list_units', { persona_id: personaId })
    expect(units.every((u) => u.state === 'validated' && u.topic_tags.includes('pets'))).toBe(true)
  }, 30_000)

  it('dead-letters jobs the provider refuses, shows them, and runs them again when retried by hand', async () => {
    const h = await setup()
    // Rules are tried in order: the first job calls get a 400, which no retry can fix.
    h.fake.script({ provider: 'openai', model: 'light-model', status: 400, times: 2 })
    const { personaId } = await persona(h)
    const bar = h.next('job_progress', (d) => d.job_id === `memory-failed:${personaId}` && d.total === 2)
    await h.call('memory_import', { persona_id: personaId, path: file(h, lines) })
    const failedOnce = await bar
    expect(failedOnce).toMatchObject({ label: 'Memory of Mika', state: 'failed' })
    expect(failedOnce.error).toMatch(/^2 jobs; retry from Jobs in the memory panel/)

    const { jobs } = await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', {
      persona_id: personaId,
      status: 'failed',
    })
    expect(jobs.map((j) => [j.kind, j.unit_id]).sort()).toEqual([
      ['extract', 1],
      ['extract', 2],
    ])
    expect(jobs.every((j) => j.tries === 1 && /refused the request/.test(j.last_error ?? ''))).toBe(true)
    const queued = await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', { persona_id: personaId, status: 'queued' })
    // The summaries wait for the extractions. Another job may still be queued beside them on a
    // busy machine (the word model's embedding, which has no scope), or be done already.
    expect(queued.jobs.filter((j) => j.kind === 'summarize').map((j) => j.scope)).toEqual([
      'relationship',
      '2023-W10',
      '2023-03-10',
    ])

    const cleared = h.next('job_progress', (d) => d.job_id === `memory-failed:${personaId}` && d.state === 'done')
    expect(await h.call('memory_retry_jobs', { persona_id: personaId, job_ids: [jobs[0]!.id] })).toEqual({ retried: 1 })
    expect(await h.call('memory_retry_jobs', { persona_id: personaId })).toEqual({ retried: 1 })
    await cleared
    const status = async () =>
      (await h.call<{ jobs: { done: number; failed: number } }>('memory_status', { persona_id: personaId })).jobs
    // The two retried jobs are done (the word model's embed jobs may be done beside them).
    await expect
      .poll(async () => ((s) => s.failed === 0 && s.done >= 2)(await status()), { timeout: 20_000 })
      .toBe(true)
    expect(await h.call('memory_retry_jobs', { persona_id: personaId })).toEqual({ retried: 0 })
  }, 30_000)
})
