import { describe, expect, it } from 'vitest'
import { useMemoryRunner } from '../../../tests/support/memoryRunner'
import { LoopStatus, UnitKind, UnitState } from '../store/enums'
import { EPISODE_JOBS } from './memoryJobs'
import { isoWeek } from './summaryJobs'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from '../store/store'

const setup = useMemoryRunner({ queue: { maxTries: 2 } })

const MODEL = 'openai:gpt-4o-mini'
function episode(store: MemoryStore, text: string, at: number): number {
  return store.createUnit({ kind: UnitKind.EPISODE, source: 'chat', occurred_at: at, payload: { user_text: text } })
}
const reply = (value: unknown) => ({ provider: 'openai' as const, times: 1, reply: JSON.stringify(value) })
/** The extraction's parts a test does not look at: nothing to note. */
const nothingElse = { entities: [], relations: [], facts: [], open: [], resolved: [] }
const calm = { emotion_label: 'neutral', emotion_intensity: 0.1, topic_tags: [], salience: 0.5, confidence: 0.7 }

describe('memory jobs with the lightweight model', () => {
  it('reflects an episode with structured output, and a re-run changes nothing', async () => {
    const { store, fake, runner } = await setup()
    const id = episode(store, 'I finally passed my driving test!', 1_700_000_000)
    fake.script(
      reply({
        ...nothingElse,
        emotion_label: 'joy',
        emotion_intensity: 0.9,
        topic_tags: ['driving'],
        salience: 0.8,
        confidence: 0.9,
      }),
    )
    runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    expect(await runner.runDue()).toMatchObject([{ outcome: 'done' }])
    // One call, in OpenAI's strict structured-output form, with the schema of every part.
    expect(fake.requests.at(-1)?.body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'memory_extraction',
          strict: true,
          schema: { required: expect.arrayContaining(['emotion_label', 'entities', 'facts', 'open']) },
        },
      },
    })
    const unit = store.requireUnit(id)
    expect(unit).toMatchObject({
      emotion_label: 'joy',
      salience: 0.8,
      topic_tags: 'driving',
      state: UnitState.VALIDATED,
    })
    const versions = store.versions(id).length
    runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    await runner.runDue()
    expect(store.versions(id)).toHaveLength(versions)
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1)
  })

  it('asks once to fix an answer that does not fit, and uses the fixed one', async () => {
    const { store, fake, runner } = await setup()
    const id = episode(store, 'hello', 1_700_000_000)
    fake.script({ provider: 'openai', times: 1, reply: '{"emotion_label": 3}' })
    fake.script(reply({ ...nothingElse, ...calm }))
    runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done'])
    const [, repair] = fake.requests.map((r) => r.body as { messages: Array<{ role: string; content: string }> })
    expect(repair!.messages.at(-2)).toEqual({ role: 'assistant', content: '{"emotion_label": 3}' })
    expect(repair!.messages.at(-1)!.content).toMatch(/^That answer cannot be used: the model's answer does not fit/)
    expect(store.requireUnit(id).state).toBe(UnitState.VALIDATED)
  })

  it('reads the first JSON object of an answer wrapped in a code fence and prose', async () => {
    const { store, fake, runner } = await setup()
    const id = episode(store, 'hello', 1_700_000_000)
    const json = JSON.stringify({ ...nothingElse, ...calm, topic_tags: ['fenced'] })
    fake.script({ provider: 'openai', reply: `Sure! Here it is:\n\`\`\`json\n${json}\n\`\`\`\nAnything else?` })
    runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done'])
    expect(fake.requests).toHaveLength(1)
    expect(store.requireUnit(id).topic_tags).toBe('fenced')
  })

  it('fails a non-JSON answer for good after one request to fix it, with the reason, never retried', async () => {
    const { store, fake, runner } = await setup({ maxTries: 5 })
    const id = episode(store, 'hello', 1_700_000_000)
    fake.script({ provider: 'openai', reply: 'I am sorry, I cannot help with that.' })
    const job = runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['dead'])
    expect(fake.requests).toHaveLength(2) // the answer and one repair, not five tries
    expect(runner.queue.get(job)).toMatchObject({
      status: 3,
      tries: 1,
      last_error: `the model's answer is not JSON (it began "I am sorry, I cannot help with that."), also when asked once to fix it`,
    })
    expect(store.requireUnit(id).state).toBe(UnitState.RAW)
  })

  it('extracts entities with aliases, roles and evidence-backed edges, idempotently', async () => {
    const { store, fake, runner } = await setup()
    const id = episode(store, 'My sister Hana works at Sony in Tokyo.', 1_700_000_000)
    const answer = {
      entities: [
        { name: 'Hana', type: 'person', aliases: ['my sister'], role: 'subject' },
        { name: 'Sony', type: 'org', aliases: ['SONY'], role: 'object' },
      ],
      relations: [{ src: 'Hana', rel: 'works_at', dst: 'Sony' }],
    }
    fake.script(reply({ ...nothingElse, ...calm, ...answer }))
    runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    await runner.runDue()
    const aliases = store.db.prepare('SELECT alias FROM entity_aliases ORDER BY alias').pluck().all()
    expect(aliases).toEqual(['hana', 'my sister', 'sony'])
    expect(store.db.prepare('SELECT count(*) FROM unit_entities WHERE unit_id = ?').pluck().get(id)).toBe(2)
    expect(store.db.prepare('SELECT weight, evidence_unit_id FROM edges').get()).toEqual({
      weight: 1,
      evidence_unit_id: id,
    })
    // A second run of the same job asks nothing and changes nothing.
    runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
    await runner.runDue()
    expect(store.db.prepare('SELECT count(*) FROM entities').pluck().get()).toBe(2)
    expect(fake.requests).toHaveLength(1)
    // The query names an alias: the linked unit comes in.
    const pack = buildPack(store, { query: 'how is my sister doing', budget: 300, path: null })
    const item = pack.sections.flatMap((s) => s.items).find((i) => i.unit_id === id)
    expect(item?.why).toMatch(/linked to Hana/)
  })

  it('closes a contradicted fact instead of deleting it, and keeps evidence links', async () => {
    const { store, fake, runner } = await setup()
    const first = episode(store, 'I live in Osaka.', 1_700_000_000)
    const second = episode(store, 'I moved to Sapporo last week.', 1_700_900_000)
    fake.script(
      reply({ ...nothingElse, ...calm, facts: [{ subject: 'user', predicate: 'lives_in', object: 'Osaka' }] }),
    )
    runner.queue.enqueue('extract', { unit_id: first, model: MODEL })
    await runner.runDue()
    fake.script(
      reply({ ...nothingElse, ...calm, facts: [{ subject: 'user', predicate: 'lives_in', object: 'Sapporo' }] }),
    )
    runner.queue.enqueue('extract', { unit_id: second, model: MODEL })
    await runner.runDue()
    const facts = store.db
      .prepare('SELECT unit_id, object_text, valid_to, evidence_unit_ids_json FROM payload_fact ORDER BY unit_id')
      .all() as Array<{ unit_id: number; object_text: string; valid_to: number | null; evidence_unit_ids_json: string }>
    expect(facts.map((f) => [f.object_text, f.valid_to, JSON.parse(f.evidence_unit_ids_json)])).toEqual([
      ['Osaka', 1_700_900_000, [first]],
      ['Sapporo', null, [second]],
    ])
    expect(store.versions(facts[0]!.unit_id).at(-1)!.patch_reason).toBe(`superseded by fact ${facts[1]!.unit_id}`)
    // Only the current fact is injected.
    const pack = buildPack(store, { query: 'where do I live? lives_in', budget: 400, path: null, now: 1_701_000_000 })
    const factIds = pack.sections.find((s) => s.kind === 'facts')?.items.map((i) => i.unit_id) ?? []
    expect(factIds).toEqual([facts[1]!.unit_id])
    // Re-running the job adds nothing.
    runner.queue.enqueue('extract', { unit_id: second, model: MODEL })
    await runner.runDue()
    expect(store.db.prepare('SELECT count(*) FROM payload_fact').pluck().get()).toBe(2)
  })

  it('opens a loop with its due date and closes it when a later episode resolves it', async () => {
    const { store, fake, runner } = await setup()
    const first = episode(store, 'I have a dentist appointment on Friday.', 1_700_000_000)
    fake.script(reply({ ...nothingElse, ...calm, open: [{ text: 'Dentist appointment', due: '2023-11-17' }] }))
    runner.queue.enqueue('extract', { unit_id: first, model: MODEL })
    await runner.runDue()
    const loop = store.db.prepare('SELECT unit_id, status, due_at FROM payload_loop').get() as {
      unit_id: number
      status: number
      due_at: number
    }
    expect(loop).toMatchObject({ status: LoopStatus.OPEN, due_at: Date.parse('2023-11-17') / 1000 })
    const second = episode(store, 'The dentist said my teeth are fine.', 1_700_300_000)
    fake.script(reply({ ...nothingElse, ...calm, resolved: [loop.unit_id] }))
    runner.queue.enqueue('extract', { unit_id: second, model: MODEL })
    await runner.runDue()
    expect(fake.requests.at(-1)!.body).toMatchObject({
      messages: expect.arrayContaining([
        expect.objectContaining({ content: expect.stringContaining(`#${loop.unit_id}: Dentist appointment`) }),
      ]),
    })
    expect(store.db.prepare('SELECT status FROM payload_loop WHERE unit_id = ?').pluck().get(loop.unit_id)).toBe(
      LoopStatus.CLOSED,
    )
    expect(store.evidenceOf(loop.unit_id)).toEqual([first, second])
  })

  it('summarises a week into one summary unit keyed like 2023-W46, rewritten as a new version', async () => {
    const { store, fake, runner } = await setup()
    const at = 1_700_000_000
    const week = isoWeek(at)
    expect(week.key).toBe('2023-W46')
    const e1 = episode(store, 'Went hiking.', at)
    fake.script(reply({ summary: 'A week of hiking.' }))
    const payload = { model: MODEL, scope_type: 2, scope_key: week.key, range_start: week.start, range_end: week.end }
    runner.queue.enqueue('summarize', payload)
    await runner.runDue()
    const e2 = episode(store, 'Cooked curry.', at + 3600)
    fake.script(reply({ summary: 'Hiking and curry.' }))
    runner.queue.enqueue('summarize', payload)
    await runner.runDue()
    const rows = store.db.prepare('SELECT unit_id, scope_key, summary_text FROM payload_summary').all() as Array<{
      unit_id: number
      summary_text: string
    }>
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ scope_key: '2023-W46', summary_text: 'Hiking and curry.' })
    expect(store.evidenceOf(rows[0]!.unit_id)).toEqual([e1, e2])
    expect(store.versions(rows[0]!.unit_id).map((v) => v.payload.summary_text)).toEqual([
      'A week of hiking.',
      'Hiking and curry.',
    ])
  })

  it('queues one extraction per episode, and runs a queued job of the four older kinds as that extraction', async () => {
    expect(EPISODE_JOBS).toEqual(['extract'])
    const { store, fake, runner } = await setup()
    const id = episode(store, 'I live in Osaka.', 1_700_000_000)
    fake.script(
      reply({ ...nothingElse, ...calm, facts: [{ subject: 'user', predicate: 'lives_in', object: 'Osaka' }] }),
    )
    for (const kind of ['reflect', 'extract_entities', 'extract_facts', 'extract_loops'])
      runner.queue.enqueue(kind, { unit_id: id, model: MODEL })
    expect((await runner.runDue()).map((o) => o.outcome)).toEqual(['done', 'done', 'done', 'done'])
    // The first does all of it in one call; the other three find the episode extracted and ask nothing.
    expect(fake.requests).toHaveLength(1)
    expect(store.requireUnit(id).state).toBe(UnitState.VALIDATED)
    expect(store.db.prepare('SELECT count(*) FROM payload_fact').pluck().get()).toBe(1)
  })
})
