import { describe, expect, it } from 'vitest'
import { useMemoryRunner } from '../../../tests/support/memoryRunner'
import { everyMemoryJobReply } from '../../../tests/support/memoryJobReply'
import { SummaryScopeType, UnitKind } from '../store/enums'
import { buildPack } from './packBuilder'
import type { MemoryStore } from '../store/store'

const NOW = 1_700_000_000

const setup = useMemoryRunner({ queue: { maxTries: 1 }, now: () => NOW })

const MODEL = 'openai:gpt-4o-mini'
/** An episode on a branch (`node`), or imported, on every branch (`null`). */
function episode(store: MemoryStore, text: string, node: string | null, at = NOW - 60): number {
  return store.createUnit({
    kind: UnitKind.EPISODE,
    source: 'chat',
    occurred_at: at,
    origin_node_id: node,
    payload: { user_text: text },
  })
}
const CAPSULE = {
  mood: 'anxious but hopeful',
  focus: 'the exam on Friday',
  tone: 'calm, encouraging',
  follow_up: ['ask how revision went'],
}

describe('capsules', () => {
  it('writes the short-term state of one branch, once, and only that branch sees it until it expires', async () => {
    const { store, fake, runner } = await setup()
    const a1 = episode(store, 'My exam is on Friday, I am nervous.', 'n1')
    const a2 = episode(store, 'I revised chapter three today.', 'n2')
    fake.script({ provider: 'openai', reply: JSON.stringify(CAPSULE) })
    runner.queue.enqueue('capsule', { model: MODEL, unit_ids: [a1, a2] })
    runner.queue.enqueue('capsule', { model: MODEL, unit_ids: [a2, a1] }) // the same exchanges again
    expect((await runner.runDue()).map((r) => r.outcome)).toEqual(['done', 'done'])
    const capsules = store.db.prepare(`SELECT id FROM units WHERE kind = ${UnitKind.CAPSULE}`).all()
    expect(capsules).toHaveLength(1)
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1)

    const pack = (path: string[], now = NOW) => buildPack(store, { query: 'hi', budget: 400, path: new Set(path), now })
    const onBranch = pack(['n1', 'n2'])
    expect(onBranch.sections.find((s) => s.kind === 'capsule')?.items[0]?.text).toBe(
      'Mood: anxious but hopeful; focus: the exam on Friday; tone: calm, encouraging; follow up: ask how revision went',
    )
    // Another branch (only n1 on its path) does not see a state built from n2.
    expect(pack(['n1', 'n9']).sections.some((s) => s.kind === 'capsule')).toBe(false)
    // Half a day later the state has expired.
    expect(pack(['n1', 'n2'], NOW + 13 * 3600).sections.some((s) => s.kind === 'capsule')).toBe(false)
  })

  it('picks the newest capsule the branch may see', async () => {
    const { store, fake, runner } = await setup()
    const a = episode(store, 'Branch A: planning a trip to Kyoto.', 'a', NOW - 120)
    const b = episode(store, 'Branch B: we talk about cooking.', 'b', NOW - 60)
    fake.script({ provider: 'openai', times: 1, reply: JSON.stringify({ ...CAPSULE, focus: 'Kyoto trip' }) })
    fake.script({ provider: 'openai', times: 1, reply: JSON.stringify({ ...CAPSULE, focus: 'cooking' }) })
    runner.queue.enqueue('capsule', { model: MODEL, unit_ids: [a] })
    await runner.runDue()
    runner.queue.enqueue('capsule', { model: MODEL, unit_ids: [b] })
    await runner.runDue()
    const capsuleOf = (node: string) =>
      buildPack(store, { query: 'hi', budget: 400, path: new Set([node]), now: NOW })
        .sections.find((s) => s.kind === 'capsule')
        ?.items.map((i) => i.text)
    expect(capsuleOf('a')).toEqual([expect.stringContaining('Kyoto trip')])
    expect(capsuleOf('b')).toEqual([expect.stringContaining('cooking')])
  })
})

describe('person and topic summaries', () => {
  it('of imported episodes are queued once an entity is named in three, and summarise its episodes by name', async () => {
    const { store, fake, runner } = await setup()
    const texts = ['Hana called me.', 'Had lunch with Hana.', 'Hana got a new job.']
    fake.script({
      provider: 'openai',
      times: 3,
      reply: everyMemoryJobReply({ entities: [{ name: 'Hana', type: 'person', aliases: [], role: 'subject' }] }),
    })
    const scopes = () =>
      (
        store.db
          .prepare("SELECT json_extract(payload_json, '$.scope_key') AS k FROM jobs WHERE kind = 'summarize'")
          .all() as Array<{ k: string }>
      ).map((r) => r.k)
    for (const [i, text] of texts.entries()) {
      // Imported: on every branch, so the worker summarises across them (chat episodes: jobPlanner).
      const id = episode(store, text, null)
      runner.queue.enqueue('extract', { unit_id: id, model: MODEL })
      await runner.runDue()
      expect(scopes()).toEqual(i < 2 ? [] : ['person:1'])
    }
    fake.script({ provider: 'openai', reply: '{"summary":"Hana is a close friend."}' })
    // Coalesced and delayed: make it due, then run it.
    store.db.prepare("UPDATE jobs SET run_after = 0 WHERE kind = 'summarize'").run()
    expect((await runner.runDue()).map((r) => r.outcome)).toEqual(['done'])
    const summary = store.db.prepare(`SELECT scope_type, scope_key, summary_text FROM payload_summary`).get()
    expect(summary).toEqual({
      scope_type: SummaryScopeType.PERSON,
      scope_key: 'person:1',
      summary_text: 'Hana is a close friend.',
    })
    const asked = JSON.stringify(fake.requests.at(-1)?.body)
    expect(asked).toContain('about the person Hana')
    for (const t of texts) expect(asked).toContain(t)
  })
})

describe('branch summaries', () => {
  it('keep one summary per fork of the same day, grow with their branch, and each fork sees only its own', async () => {
    const { store, fake, runner } = await setup()
    const root = episode(store, 'We planned a weekend trip.', 'root', NOW - 300)
    const a = episode(store, 'Fork A: we chose the mountains.', 'a', NOW - 200)
    const b = episode(store, 'Fork B: we chose the sea.', 'b', NOW - 100)
    const day = { model: MODEL, scope_type: SummaryScopeType.DAILY, scope_key: '2023-11-14' }
    const summarize = async (unitIds: number[], summary: string) => {
      fake.script({ provider: 'openai', times: 1, reply: JSON.stringify({ summary }) })
      runner.queue.enqueue('summarize', { ...day, unit_ids: unitIds })
      return runner.runDue()
    }
    await summarize([root, a], 'A weekend in the mountains was planned.')
    await summarize([root, b], 'A weekend by the sea was planned.')
    const summaries = () =>
      store.db.prepare(`SELECT unit_id, summary_text FROM payload_summary ORDER BY unit_id`).all() as Array<{
        unit_id: number
        summary_text: string
      }>
    expect(summaries().map((s) => s.summary_text)).toEqual([
      'A weekend in the mountains was planned.',
      'A weekend by the sea was planned.',
    ])
    // Fork A grows: its own summary is rewritten (a new version), fork B's stays.
    const a2 = episode(store, 'Fork A: we booked a hut.', 'a2', NOW - 50)
    await summarize([root, a, a2], 'A weekend in the mountains, a hut booked.')
    expect(summaries().map((s) => s.summary_text)).toEqual([
      'A weekend in the mountains, a hut booked.',
      'A weekend by the sea was planned.',
    ])
    expect(store.versions(summaries()[0]!.unit_id).length).toBe(2)
    // The same list again asks the model nothing.
    const asked = fake.requests.length
    await summarize([root, a, a2], 'unused')
    expect(fake.requests.length).toBe(asked)

    const seen = (path: string[]) =>
      buildPack(store, { query: 'the weekend', budget: 600, path: new Set(path), now: NOW })
        .sections.find((s) => s.kind === 'summaries')
        ?.items.map((i) => i.text) ?? []
    expect(seen(['root', 'a', 'a2']).join()).toContain('hut booked')
    expect(seen(['root', 'a', 'a2']).join()).not.toContain('sea')
    expect(seen(['root', 'b']).join()).toContain('by the sea')
    expect(seen(['root', 'b']).join()).not.toContain('mountains')
  })
})
