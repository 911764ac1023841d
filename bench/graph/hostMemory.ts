// Host memory and disk over a long companion conversation: N chat turns (chat_send through the
// router, a persona with a long persona text, the fake LLM on a thread of its own, the job worker
// checkpointing as in the app). After a warm-up the garbage collector is forced and RSS and the
// heap are sampled; they are sampled again at the end. Prints one JSON line:
//   {bench, turns, warmup, rss_start_mb, rss_end_mb, rss_growth_mb, heap_growth_mb, db_mb, wal_mb, sent_contexts_mb}
// Run with `npm run bench:memoryGrowth` (`-- --turns N`, or LOOMVERSE_BENCH_TURNS). The
// reliability suite's memory_growth runs it in a process of its own (memoryGrowth.ts).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { startCore } from '../../main/core'
import { sourceWorker } from '../../tests/support/sourceWorker'
import { callerOf, chatTurn, startOutside } from '../support'

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: process.env.LOOMVERSE_BENCH_TURNS ?? '10000' },
    warmup: { type: 'string' },
  },
})
const turns = Number(values.turns)
if (!Number.isInteger(turns) || turns < 20) throw new Error(`--turns must be an integer ≥ 20, got "${values.turns}"`)
// Caches fill and the JIT settles over the first turns: growth is counted from there.
const warmup = values.warmup !== undefined ? Number(values.warmup) : Math.min(500, Math.floor(turns / 5))

// A collector the script can call without `node --expose-gc` on the command line.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1))
const sample = () => {
  for (let i = 0; i < 3; i++) gc()
  const m = process.memoryUsage()
  return { rss: m.rss, heap: m.heapUsed }
}
const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0)

// A companion's persona text, as users write them: a few KB repeated in every context.
const personaText = Array.from(
  { length: 60 },
  (_, i) => `Trait ${i}: Mira is warm, curious about gardens and old songs, and remembers what you tell her.`,
).join('\n')

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-memory-'))
const outside = await startOutside()
const core = startCore({ home, mode: 'browser', log: () => {}, env: outside.env, jobWorker: sourceWorker() })
try {
  const call = callerOf(core)
  const persona = await call<{ id: string }>('create_persona', { name: 'Mira', persona_text: personaText })
  const flow = await call<{ id: string }>('create_flow', { name: 'companion', persona_id: persona.id })
  let parent: string | null = null
  let start = sample()
  for (let i = 0; i < turns; i++) {
    if (i === warmup) start = sample()
    const turn = await chatTurn(core, {
      flow_id: flow.id,
      prompt: `Turn ${i}: what did we plant by the fence, and what should we sing tonight?`,
      persona_id: persona.id,
      parent_id: parent,
    })
    parent = turn.nodeId
  }
  const end = sample()
  const sentContexts = core.db
    .prepare("SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE '%sent_context%'")
    .get() as { bytes: number } | undefined
  console.log(
    JSON.stringify({
      bench: 'graph.host_memory',
      turns,
      warmup,
      rss_start_mb: mb(start.rss),
      rss_end_mb: mb(end.rss),
      rss_growth_mb: mb(end.rss - start.rss),
      heap_growth_mb: mb(end.heap - start.heap),
      db_mb: mb(sizeOf(core.paths.db)),
      wal_mb: mb(sizeOf(`${core.paths.db}-wal`)),
      sent_contexts_mb: mb(sentContexts?.bytes ?? 0),
    }),
  )
} finally {
  await core.dispose()
  outside.close()
  rmSync(home, { recursive: true, force: true })
}
