// Story mode's per-turn costs (issue #10): building a turn's context on a 5,000-turn path with 30
// character sheets (target p95 ≤ 20 ms), and the check after each turn of whether a summary is
// due (target ≤ 1 ms). Prints JSON lines; compare within one run. `npx tsx bench/story/run.ts`.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Story } from '@shared/contract'
import { startCore } from '../../main/core'
import { isoNow } from '../../main/kernel/time'
import { openMemory } from '../../main/memory/store/db'
import { UnitKind } from '../../main/memory/store/enums'
import { sentence } from '../memory/syntheticMemory'
import { PersonaService } from '../../main/persona/personaService'
import { SettingsService } from '../../main/settings/settingsService'
import { StoryMemory } from '../../main/story/storyMemory'
import { StoryService } from '../../main/story/storyService'

const TURNS = 5000
const SHEETS = 30
const RUNS = 200
/** As the seed's default settings would have made them: every 10 turns, keeping 6 word for word. */
const EVERY = 10
const KEPT = 6

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  return { p50_ms: +percentile(sorted, 50).toFixed(3), p95_ms: +percentile(sorted, 95).toFixed(3) }
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-story-'))
  const core = startCore({ home, mode: 'browser', jobWorker: null, memoryWorker: null, log: () => {} })
  try {
    const init = await core.router.call(
      'story_init',
      { name: 'Bench', template: 'fantasy', language: 'en' },
      { transport: 'internal' },
    )
    if (!init.ok) throw new Error(init.error.message)
    const story = init.value as Story
    const dir = join(core.paths.scenarios, story.name)
    for (let i = 0; i < SHEETS; i++) {
      const lines = [`# Character ${i}`, '', '## Appearance', 'Tall, with a green coat and a lantern.', '']
      for (const h of ['Personality', 'Speech', 'Relationships', 'Current state'])
        lines.push(`## ${h}`, `Character ${i}'s ${h.toLowerCase()}: ${'a detail that matters later. '.repeat(4)}`, '')
      writeFileSync(join(dir, 'scenario/characters', `character_${i}.md`), lines.join('\n'))
    }

    // The path, written straight through the store in one transaction (as bench/graphFixture does).
    const store = core.graph.store
    const ids = [story.current_node_id!]
    const base = Date.parse('2026-01-01T00:00:00Z')
    core.db
      .transaction(() => {
        for (let i = 1; i <= TURNS; i++) {
          const id = randomUUID()
          store.insertNode({
            id,
            timestamp: isoNow(new Date(base + i * 60_000)),
            prompt: `Turn ${i}: I look around the square and ask the guard about the missing heir.`,
            response: `Reply ${i}. The guard shrugs. "The queen's men came by at dawn," he says, and points north.`,
            model: 'bench:model',
          })
          store.addMember(story.flow_id, id, null)
          store.addEdge(story.flow_id, ids.at(-1)!, id)
          ids.push(id)
        }
        for (let at = EVERY; at <= TURNS; at += EVERY) {
          core.db
            .prepare(
              `INSERT INTO story_summaries (story_id, node_id, covered_node_id, turns, path_turns, text, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              story.id,
              ids[at],
              ids[at - KEPT],
              at - KEPT + 1,
              at + 1,
              `The story up to turn ${at - KEPT}. `.repeat(40),
              isoNow(),
            )
        }
      })
      .immediate()
    const last = ids.at(-1)!

    const measure = async (memory: string) => {
      const context: number[] = []
      let tokens = 0
      for (let i = 0; i < RUNS + 10; i++) {
        const t = performance.now()
        const r = await core.router.call(
          'build_context',
          { flow_id: story.flow_id, parent_ids: [last], prompt: 'I follow the guard north to the watchtower.' },
          { transport: 'internal' },
        )
        const ms = performance.now() - t
        if (!r.ok) throw new Error(r.error.message)
        if (i >= 10) context.push(ms) // the first runs read and count the files
        tokens = (r.value as { total_tokens: number }).total_tokens
      }
      console.log(
        JSON.stringify({
          bench: 'story.context',
          path_turns: TURNS,
          sheets: SHEETS,
          summaries: Math.floor(TURNS / EVERY),
          persona_memory: memory,
          runs: RUNS,
          ...stats(context),
          context_tokens: tokens,
          target_p95_ms: 20,
        }),
      )
    }
    await measure('empty')
    // As a long play leaves it: the game master remembers every turn, each from its node.
    const remembered = openMemory(join(core.paths.memory, `memory_${story.persona_id}.db`))
    remembered.db
      .transaction(() => {
        for (let i = 1; i <= TURNS; i++)
          remembered.createUnit({
            kind: UnitKind.EPISODE,
            source: 'chat',
            origin_node_id: ids[i]!,
            origin_flow_id: story.flow_id,
            payload: { user_text: `Turn ${i}: I ask about the ${sentence(6)}.`, reply_text: `The ${sentence(8)}.` },
          })
      })
      .immediate()
    remembered.db.close()
    await measure(`${TURNS} episodes on the path`)

    // The check after each turn, as StoryMemory runs it.
    const stories = new StoryService({
      db: core.db,
      bus: core.bus,
      paths: core.paths,
      graph: core.graph,
      personas: new PersonaService(core.db, core.bus),
      settings: new SettingsService(core.db, core.bus),
      log: () => {},
    })
    const memory = new StoryMemory(stories, {
      jobs: core.jobs,
      bus: core.bus,
      graph: core.graph,
      paths: core.paths,
      log: () => {},
    })
    const row = stories.row(story.id)
    const check: number[] = []
    let due = 0
    for (let i = 0; i < RUNS * 5; i++) {
      const node = ids[TURNS - (i % 50)]!
      const t = performance.now()
      if (memory.isDue(row, node)) due++
      check.push(performance.now() - t)
    }
    console.log(
      JSON.stringify({
        bench: 'story.summary_check',
        path_turns: TURNS,
        runs: check.length,
        due,
        ...stats(check),
        target_ms: 1,
      }),
    )
  } finally {
    await core.dispose()
    rmSync(home, { recursive: true, force: true })
  }
}

void main()
