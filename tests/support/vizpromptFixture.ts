import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach } from 'vitest'
import type { FlowGraph } from '@shared/contract'
import { startCore, type Core } from '../../main/core'
import { exportVizprompt } from '../../main/interop/vizprompt'
import type { RootAlternative } from '../../main/graph/graphService'
import { useTempHome } from './tempHome'

// Shared setup for the VizPrompt tests: real cores on real SQLite files in a temporary home,
// graphs built straight through the store (fast enough for thousands of nodes), and the
// helpers to compare exports byte for byte.

export interface Fixture {
  /** A core on its own data folder under the test's temporary home. */
  core(name?: string): Core
  /** A path under the temporary home (not created). */
  path(name: string): string
}

export function useVizprompt(): () => Fixture {
  const home = useTempHome()
  const open: Core[] = []
  afterEach(() => {
    for (const core of open.splice(0)) core.dispose()
  })
  return () => ({
    core(name = 'home') {
      const dir = join(home(), name)
      mkdirSync(dir, { recursive: true })
      const core = startCore({ home: dir, mode: 'browser', log: () => {} })
      open.push(core)
      return core
    },
    path: (name) => join(home(), name),
  })
}

/** Every file under `dir` by relative path, with its bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>()
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name)
      if (e.isDirectory()) walk(full)
      else out.set(relative(dir, full).split('\\').join('/'), readFileSync(full))
    }
  }
  walk(dir)
  return out
}

/** Everything the graph holds, flow by flow, for "nothing changed" checks. */
export function dump(core: Core): {
  flows: Array<Omit<FlowGraph, 'version'> & { alternatives: RootAlternative[] }>
  nodeRows: number
} {
  const flows = core.graph
    .listFlows()
    // What the flows hold, not when they were last announced.
    .map((f) => ({
      flow: core.graph.getFlow(f.id),
      nodes: core.graph.loadFlow(f.id).nodes,
      alternatives: core.graph.rootAlternatives(f.id),
    }))
    .sort((a, b) => (a.flow.id < b.flow.id ? -1 : 1))
  const { n } = core.db.prepare('SELECT count(*) AS n FROM nodes').get() as { n: number }
  return { flows, nodeRows: n }
}

const TEXTS = [
  'こんにちは。今日はいい天気ですね。',
  'CDATA ends like this: ]]> and ]]]]> too',
  'Windows line ends\r\nand a lone CR\rhere',
  '\n\nleading and trailing newlines\n\n',
  '<!DOCTYPE html>\n<html lang="ja">&amp;</html>',
  'tabs\tand emoji 🧵 and "quotes" & <angles>',
  '',
]
const TAGS = ['旅行', 'code', '123', 'true', 'a: b', 'R&D']
const OFFSETS = ['+09:00', 'Z', '-05:30', '+00:00']

/** A timestamp `i` seconds after a fixed start, with microseconds and a rotating offset. */
export function stamp(i: number): string {
  const date = new Date(Date.UTC(2025, 4, 9, 0, 0, 0) + i * 1000)
  const offset = OFFSETS[i % OFFSETS.length]!
  const minutes =
    offset === 'Z' ? 0 : (offset[0] === '-' ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)))
  const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 19)
  return `${local}.${String(i % 1_000_000).padStart(6, '0')}${offset}`
}

/**
 * A flow of `count` nodes: mostly a chain, a branch every 7th node and a merge of two
 * earlier nodes every 11th, with tags, stats, summaries, positions and pins on some.
 * Returns the flow id and the node ids in creation order.
 */
export function buildFlow(core: Core, count: number, name = 'メインフロー'): { flowId: string; ids: string[] } {
  const store = core.graph.store
  const flowId = core.graph.createFlow({ name, description: 'line one\r\nline two\n' }).id
  const ids: string[] = []
  core.db
    .transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = randomUUID()
        store.insertNode({
          id,
          timestamp: stamp(i),
          prompt: `#${i} ${TEXTS[i % TEXTS.length]}`,
          response: TEXTS[(i + 3) % TEXTS.length]!,
          model: i % 5 === 0 ? '' : 'gpt-test',
          status: i % 97 === 5 ? 'error' : 'complete',
        })
        store.setTags(id, i % 3 === 0 ? [TAGS[i % TAGS.length]!, TAGS[(i + 1) % TAGS.length]!] : [])
        store.addMember(flowId, id, i % 4 === 0 ? { x: i * 10.25, y: -i / 3 } : null)
        if (i % 50 === 1) store.setPinned(flowId, id, true)
        for (const parent of parentsOf(i, ids)) store.addEdge(flowId, parent, id)
        if (i % 2 === 0) enrich(core, id, i)
        ids.push(id)
      }
      core.graph.updateFlow({ id: flowId, system_prompt: 'あなたは親切です。\n', token_budget: 12000 })
    })
    .immediate()
  return { flowId, ids }
}

function parentsOf(i: number, ids: string[]): string[] {
  if (i === 0) return []
  if (i % 11 === 0 && i >= 3) return [ids[i - 1]!, ids[i - 3]!]
  if (i % 7 === 0 && i >= 5) return [ids[i - 5]!]
  return [ids[i - 1]!]
}

/** What an LLM reply and a summary job would have added. */
function enrich(core: Core, id: string, i: number): void {
  const stats = {
    user: { count: i, duration: 0.1 + 0.2, rate: i / 7 },
    assistant: { count: 2 * i, duration: 1.5, rate: 40 },
  }
  core.db
    .prepare(
      'UPDATE nodes SET stats_json = ?, summary_text = ?, summary_updated = ?, summary_last_built = ? WHERE id = ?',
    )
    .run(JSON.stringify(stats), `要約 ${i} & <more>\r\n`, i % 4 === 0 ? 0 : 1, stamp(i + 1), id)
}

/**
 * An exported conversation whose first message was answered again (Regenerate): `again` is
 * another version of `first`, `below` the turn after the original, `next` the one after the new
 * version.
 */
export async function regeneratedFirstExported(
  t: Fixture,
): Promise<{ source: Core; flowId: string; first: string; below: string; again: string; next: string; dir: string }> {
  const source = t.core('source')
  const flowId = source.graph.createFlow({ name: 'versions' }).id
  const node = (prompt: string, parent?: string) =>
    source.graph.createNode({ flow_id: flowId, prompt, response: `re: ${prompt}`, parent_ids: parent ? [parent] : [] })
      .id
  const first = node('My cat is called Tama.')
  const below = node('She likes fish.', first)
  const again = source.graph.createBranch({ flow_id: flowId, node_id: first, prompt: 'My cat is called Tama.' }).id
  const next = node('She is three.', again)
  const dir = t.path('export')
  await exportVizprompt(source, { outDir: dir })
  return { source, flowId, first, below, again, next, dir }
}
