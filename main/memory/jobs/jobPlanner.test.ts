import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { useTempHome } from '../../../tests/support/tempHome'
import type { LlmRegistry } from '../../llm/providers'
import type { PersonaService } from '../../persona/personaService'
import type { SettingsService } from '../../settings/settingsService'
import { CAPSULE_EPISODES } from './capsuleJob'
import { openMemory } from '../store/db'
import { UnitKind } from '../store/enums'
import { MemoryJobPlanner } from './jobPlanner'
import type { MemoryStore } from '../store/store'
import { SUMMARY_EPISODES, summaryJobs } from './summaryJobs'

const home = useTempHome()
const open: MemoryStore[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.db.close()
})

const DAY = 86_400
const NOW = 1_700_000_000 // a Tuesday
const MODEL = 'openai:gpt-4o-mini'

/** A conversation of two forks over three days: each episode's node, time and id. */
function conversation() {
  const store = openMemory(join(home(), 'memory_p.db'))
  open.push(store)
  const episodes: Array<{ id: number; node: string | null; at: number }> = []
  const add = (node: string | null, at: number) => {
    const id = store.createUnit({
      kind: UnitKind.EPISODE,
      source: node ? 'chat' : 'import',
      occurred_at: at,
      origin_node_id: node,
      payload: { user_text: `said at ${at}` },
    })
    episodes.push({ id, node, at })
  }
  // Fork A: 230 turns from two days ago until now; fork B: 20 turns today; 6 imported lines
  // (on every branch).
  for (let i = 0; i < 230; i++) add(`a${i}`, NOW - 2 * DAY + i * 750)
  for (let i = 0; i < 20; i++) add(`b${i}`, NOW - 3 * 3600 + i * 60)
  for (let i = 0; i < 5; i++) add(null, NOW - DAY + i * 60)
  add(null, NOW + 2 * DAY) // a line from a clock ahead: in this week, not this day
  const forkA = new Set(Array.from({ length: 230 }, (_, i) => `a${i}`))
  const forkB = new Set([
    ...Array.from({ length: 10 }, (_, i) => `a${i}`),
    ...Array.from({ length: 20 }, (_, i) => `b${i}`),
  ])
  return { store, episodes, forkA, forkB }
}

function planner(paths: Record<string, ReadonlySet<string>>) {
  return new MemoryJobPlanner({
    personas: { get: () => ({ id: 'p', lightweight_model: MODEL }) } as unknown as PersonaService,
    llm: { configured: () => ['openai'] } as unknown as LlmRegistry,
    settings: { get: () => ({ summary: { model: null } }) } as unknown as SettingsService,
    env: {},
    embeddingModel: () => null,
    wake: () => {},
    pathTo: (_flow, node) => paths[node]!,
  })
}

function waitingJobs(store: MemoryStore) {
  return (
    store.db
      .prepare(`SELECT id, kind, dedupe_key, payload_json FROM jobs WHERE status = 0 ORDER BY id`)
      .all() as Array<{
      id: number
      kind: string
      dedupe_key: string
      payload_json: string
    }>
  ).map((j) => ({ ...j, ids: (JSON.parse(j.payload_json) as { unit_ids: number[] }).unit_ids }))
}

describe('the jobs a chat exchange queues over its branch', () => {
  it('list, oldest first, the newest episodes of the branch each job reads: capsule, day, week, relationship', () => {
    const { store, episodes, forkA } = conversation()
    planner({ a229: forkA }).queueBranchJobs('p', store, 'flow', 'a229', NOW)

    // What each job should read, from the episodes themselves: on fork A or imported, in range.
    const newestOnA = (limit: number, range?: { range_start: number; range_end: number }) =>
      episodes
        .filter(
          (e) =>
            (e.node === null || forkA.has(e.node)) && (!range || (e.at >= range.range_start && e.at < range.range_end)),
        )
        .sort((x, y) => y.at - x.at || y.id - x.id)
        .slice(0, limit)
        .map((e) => e.id)
        .reverse()
    const [daily, weekly] = summaryJobs(NOW, MODEL).map((j) => j.payload as { range_start: number; range_end: number })
    const jobs = waitingJobs(store)
    expect(jobs.map((j) => j.dedupe_key)).toEqual([
      'capsule:flow:a229',
      ...summaryJobs(NOW, MODEL).map((j) => `${j.dedupeKey}:flow:a229`),
    ])
    expect(jobs[0]!.ids).toEqual(newestOnA(CAPSULE_EPISODES))
    expect(jobs[1]!.ids).toEqual(newestOnA(SUMMARY_EPISODES, daily))
    expect(jobs[2]!.ids).toEqual(newestOnA(SUMMARY_EPISODES, weekly))
    expect(jobs[3]!.ids).toEqual(newestOnA(SUMMARY_EPISODES))
    // Fork B's turns are in none of them; the imported lines are in the week's and the relationship's.
    const onB = new Set(episodes.filter((e) => e.node?.startsWith('b')).map((e) => e.id))
    expect(jobs.flatMap((j) => j.ids).some((id) => onB.has(id))).toBe(false)
    const imported = episodes.filter((e) => e.node === null).map((e) => e.id)
    expect(jobs[3]!.ids).toEqual(expect.arrayContaining(imported))
    expect(jobs[1]!.ids.length).toBeLessThan(jobs[2]!.ids.length)
  })

  it('give a waiting job of the same fork the newer list, and queue another fork its own', () => {
    const { store, episodes, forkA, forkB } = conversation()
    const beforeLast = new Set([...forkA].filter((n) => n !== 'a229'))
    const plan = planner({ a228: beforeLast, a229: forkA, b19: forkB })
    plan.queueBranchJobs('p', store, 'flow', 'a228', NOW)
    const first = waitingJobs(store)
    plan.queueBranchJobs('p', store, 'flow', 'a229', NOW)
    const again = waitingJobs(store)
    // The same jobs (ids and keys), each with the list as it now is: the newest turn added.
    expect(again.map((j) => [j.id, j.dedupe_key])).toEqual(first.map((j) => [j.id, j.dedupe_key]))
    const newest = episodes.find((e) => e.node === 'a229')!.id
    expect(first.map((j) => j.ids.includes(newest))).toEqual([false, false, false, false])
    expect(again.map((j) => j.ids.includes(newest))).toEqual([true, true, true, true])

    plan.queueBranchJobs('p', store, 'flow', 'b19', NOW)
    const withB = waitingJobs(store)
    const bJobs = withB.filter((j) => j.dedupe_key.endsWith(':b19'))
    expect(bJobs.map((j) => j.kind)).toEqual(['capsule', 'summarize', 'summarize', 'summarize'])
    // Fork A's jobs kept their lists.
    expect(withB.filter((j) => !j.dedupe_key.endsWith(':b19'))).toEqual(again)
  })
})
