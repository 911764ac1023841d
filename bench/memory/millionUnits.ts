// A persona memory of a million units, brought in the way a user brings one: a JSONL chat log
// imported by `memory_import` through the router, as `loomverse memory import --no-llm` does.
// Prints JSON lines:
// - memory.import: units, seconds, the process's peak RSS (process.resourceUsage().maxRSS,
//   which covers everything the process did before, so the file is written in small pieces)
//   and how many progress events the import sent;
// - memory.import_progress: every 50,000 units imported, the time so far and the RSS then;
// - memory.embed: the built-in word model (what a persona that chose no embedding model gets)
//   embedding what was imported, as the app's embed job does in the memory worker afterwards
//   (an import with no worker, as here and in the CLI, only queues it): seconds and RSS;
// - memory.pack: MemoryPack p50/p95 timed as bench/memory/run.ts times it (packTiming.ts), on
//   the imported memory, at `--first` units (100,000) and at `--units` (1,000,000), in one run,
//   with the word model's vectors searched and the query embedded by it inside the time.
// Issue 38's bounds: pack p95 ≤ 60 ms and import RSS ≤ 1.5 GB at a million units.
// Run with `npm run bench:memory1m` (`-- --units N --first M`); it writes ~2 GB of databases
// in the temporary folder and takes a while: run it in the background.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startCore } from '../../main/core'
import { openMemory } from '../../main/memory/store/db'
import { buildPack, type PackRequest } from '../../main/memory/pack/packBuilder'
import { embedDirty } from '../../main/memory/jobs/embedJob'
import { embedWords, WORDS_MODEL } from '../../main/memory/retrieval/wordVectors'
import { callerOf } from '../support'
import { WARM_UP_NOTE, pct, steadyPacks } from './packTiming'
import { benchQueries, sentence } from './syntheticMemory'

const { values } = parseArgs({
  options: {
    units: { type: 'string', default: '1000000' },
    first: { type: 'string', default: '100000' },
    // Keeps the data folder (an empty or new folder): the packs can then be timed again on it.
    keep: { type: 'string' },
    // Only the packs, on the memory a --keep run left in that folder.
    'packs-only': { type: 'boolean', default: false },
    // Each pack's stages (scheduler's profile), their mean and p95, on a line of their own.
    stages: { type: 'boolean', default: false },
  },
})
const units = Number(values.units)
const first = Number(values.first)
if (!Number.isInteger(units) || !Number.isInteger(first) || first < 1 || first >= units)
  throw new Error(`--first and --units must be integers with 0 < first < units, got ${first} and ${units}`)

const print = (o: Record<string, unknown>) => console.log(JSON.stringify(o))
const MiB = 1024 * 1024
const RSS_BOUND_MB = 1536
/** Units between two memory.import_progress lines. */
const PROGRESS_EVERY = 50_000
/** Printed beside each figure: the machine is shared. */
const loadAverage = () => loadavg().map((x) => +x.toFixed(2))

const home = values.keep ?? mkdtempSync(join(tmpdir(), 'loomverse-bench-million-'))
try {
  if (values['packs-only']) {
    const personaId = await withCore(async (call) => (await call<Array<{ id: string }>>('list_personas', {}))[0]!.id)
    packs(personaId, benchQueries(), units)
    process.exit(0)
  }
  // Queries first: benchQueries and sentence draw from one seeded generator.
  const queries = benchQueries()
  const personaId = await withCore(async (call) => {
    const persona = await call<{ id: string }>('create_persona', { name: 'Million' })
    await call('memory_add_unit', {
      persona_id: persona.id,
      kind: 'persona',
      text: 'You are Mika, a calm librarian who loves tea.',
    })
    await call('memory_add_unit', {
      persona_id: persona.id,
      kind: 'contract',
      text: 'Be honest; never give medical advice.',
    })
    return persona.id
  })
  for (const [from, to] of [
    [0, first],
    [first, units],
  ] as const) {
    const file = join(home, `log-${from}.jsonl`)
    writeChatLog(file, from, to)
    await importLog(personaId, file, to - from, to)
    rmSync(file)
    await embedWithWordModel(personaId, to - from)
    packs(personaId, queries, to)
  }
} finally {
  if (!values.keep) rmSync(home, { recursive: true, force: true })
}

/** A core as the command line starts one (no workers), for one piece of work. */
async function withCore<T>(
  run: (call: ReturnType<typeof callerOf>, core: Awaited<ReturnType<typeof startCore>>) => Promise<T>,
) {
  const core = startCore({ home, mode: 'browser', log: () => {} })
  try {
    return await run(callerOf(core), core)
  } finally {
    await core.dispose()
  }
}

/**
 * Messages [from, to) as JSONL, a megabyte at a time: the synthetic vocabulary of run.ts's
 * episodes, two speakers taking turns, ten minutes apart.
 */
function writeChatLog(file: string, from: number, to: number): void {
  const fd = openSync(file, 'w')
  try {
    let chunk = ''
    for (let i = from; i < to; i++) {
      const line =
        i % 2 === 0
          ? { id: `m${i}`, speaker: 'User', text: `I talked about ${sentence(12)}.`, time: 1_600_000_000 + i * 600 }
          : { id: `m${i}`, speaker: 'Mika', text: `That sounds like ${sentence(10)}.`, time: 1_600_000_000 + i * 600 }
      chunk += `${JSON.stringify(line)}\n`
      if (chunk.length > MiB) {
        writeSync(fd, chunk)
        chunk = ''
      }
    }
    writeSync(fd, chunk)
  } finally {
    closeSync(fd)
  }
}

async function importLog(personaId: string, file: string, count: number, total: number): Promise<void> {
  await withCore(async (call, core) => {
    let progress = 0
    let rssPeak = 0
    let shown = 0
    const t0 = performance.now()
    const stop = core.bus.listen((event, data) => {
      if (event !== 'job_progress' || (data as { job_id: string }).job_id !== `memory-import:${personaId}`) return
      progress++
      const rss = process.memoryUsage.rss()
      rssPeak = Math.max(rssPeak, rss)
      // A line every PROGRESS_EVERY units: whether the import's RAM stays flat as it goes.
      const { done } = data as { done: number }
      if (done - shown < PROGRESS_EVERY && done < count) return
      shown = done
      print({
        bench: 'memory.import_progress',
        done,
        of: count,
        seconds: +((performance.now() - t0) / 1000).toFixed(1),
        rss_mb: Math.round(rss / MiB),
        load_avg: loadAverage(),
      })
    })
    const result = await call<{ imported: number; unreadable: number }>('memory_import', {
      persona_id: personaId,
      path: file,
      no_llm: true,
    })
    const seconds = (performance.now() - t0) / 1000
    stop()
    if (result.imported !== count || result.unreadable > 0)
      throw new Error(`imported ${result.imported} of ${count} (${result.unreadable} unreadable)`)
    const maxRss = process.resourceUsage().maxRSS * 1024
    print({
      bench: 'memory.import',
      units: count,
      units_in_memory: total + 2,
      via: 'memory_import (JSONL, --no-llm)',
      seconds: +seconds.toFixed(1),
      units_per_s: Math.round(count / seconds),
      // The process's high-water mark since it started (its earlier imports and packs too).
      peak_rss_mb: Math.round(maxRss / MiB),
      // Sampled at each progress event: the import's own.
      import_rss_peak_mb: Math.round(rssPeak / MiB),
      rss_bound_mb: RSS_BOUND_MB,
      progress_events: progress,
      load_avg: loadAverage(),
    })
  })
}

/** What the memory worker's embed job does after an import, here on this thread (no other work waits on it). */
async function embedWithWordModel(personaId: string, count: number): Promise<void> {
  const store = openMemory(join(home, 'memory', `memory_${personaId}.db`))
  try {
    let rssPeak = 0
    const t0 = performance.now()
    await embedDirty(store, WORDS_MODEL, (texts) => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
      return Promise.resolve(embedWords(texts))
    })
    print({
      bench: 'memory.embed',
      model: WORDS_MODEL,
      units: count,
      seconds: +((performance.now() - t0) / 1000).toFixed(1),
      rss_peak_mb: Math.round(rssPeak / MiB),
      load_avg: loadAverage(),
    })
  } finally {
    store.db.close()
  }
}

/** The word model's query vector, as packAids makes it for a persona that chose no model. */
function withWordVector(query: string): Pick<PackRequest, 'modelVector'> {
  const vector = embedWords([query])[0]
  return vector ? { modelVector: { model: WORDS_MODEL, vector } } : {}
}

/** Pack times on the imported memory, as run.ts takes them on its synthetic one. */
function packs(personaId: string, queries: string[], total: number): void {
  const store = openMemory(join(home, 'memory', `memory_${personaId}.db`))
  try {
    const stages = new Map<string, number[]>()
    let rssPeak = 0
    const { first_pack_ms, ms } = steadyPacks((query) => {
      const profile: Record<string, number> = {}
      buildPack(store, { query, budget: 2000, path: null, profile, ...withWordVector(query) })
      for (const [stage, t] of Object.entries(profile)) stages.set(stage, [...(stages.get(stage) ?? []), t])
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
    }, queries)
    const tokens = queries
      .slice(0, 20)
      .map((q) => buildPack(store, { query: q, budget: 2000, path: null, ...withWordVector(q) }).tokens)
    print({
      bench: 'memory.pack',
      units: total + 2,
      source: 'imported chat log (episodes)',
      vectors: `hashed n-grams + ${WORDS_MODEL}`,
      budget_tokens: 2000,
      p50_ms: pct(ms, 50),
      p95_ms: pct(ms, 95),
      target_p95_ms: 60,
      first_pack_ms,
      max_pack_tokens: Math.max(...tokens),
      // Sampled after each pack (the first and the warm-up ones too).
      packs_rss_peak_mb: Math.round(rssPeak / MiB),
      note: `includes the local and word-model query embeddings; ${WARM_UP_NOTE}`,
      load_avg: loadAverage(),
    })
    if (values.stages) {
      // The timed packs' stages only: the first and warm-up packs come before them.
      const timed = (v: number[]) => v.slice(-ms.length)
      print({
        bench: 'memory.pack_stages',
        units: total + 2,
        ...Object.fromEntries(
          [...stages].map(([stage, v]) => [
            stage,
            { mean: +(timed(v).reduce((a, b) => a + b, 0) / ms.length).toFixed(2), p95: pct(timed(v), 95) },
          ]),
        ),
        load_avg: loadAverage(),
      })
    }
  } finally {
    store.db.close()
  }
}
