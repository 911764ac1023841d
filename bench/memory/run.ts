// Memory engine benchmarks: one JSON line each (LOOMVERSE_BENCH_ONLY=locomo or =pack for a part). Run with
//   npx tsx --tsconfig tsconfig.node.json bench/memory/run.ts
// Set LOOMVERSE_LOCOMO to point at locomo_dev.json elsewhere; by default it is looked up
// beside the repository (../shared/data/locomo/locomo_dev.json). Times depend on the
// machine and its load: compare within one run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { JobQueue } from '../../main/kernel/jobs/jobQueue'
import { openMemory } from '../../main/memory/store/db'
import { embedLocal, vectorBlob } from '../../main/memory/store/embedder'
import { Sensitivity, UnitKind, UnitState } from '../../main/memory/store/enums'
import { buildPack } from '../../main/memory/pack/packBuilder'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import { embedWords, WORDS_MODEL } from '../../main/memory/retrieval/wordVectors'
import { embedDirty } from '../../main/memory/jobs/embedJob'
import type { MemoryStore } from '../../main/memory/store/store'
import { vectorIndexOf } from '../../main/memory/retrieval/vectorIndex'
import { locomo } from './locomo'
import { modelKnn } from './modelKnn'
import { reachPacks } from './reachPack'
import { FIRST_QUERY, WARM_UP_NOTE, WARM_UP_QUERIES, pct, steadyPacks, timed } from './packTiming'
import { addAnchors, benchQueries, fillMemory, sentenceStandIns, words } from './syntheticMemory'
import { MemoryWorkerHost } from '../../main/memory/jobs/workerHost'
import { sourceWorker } from '../../tests/support/sourceWorker'

const repoRoot = resolve(import.meta.dirname, '../..')
const print = (o: Record<string, unknown>) => console.log(JSON.stringify(o))

// ---- synthetic corpus

/** Fills units [from, to) and returns units per second. */
function fill(store: MemoryStore, from: number, to: number): number {
  const t0 = performance.now()
  fillMemory(store, from, to)
  return (to - from) / ((performance.now() - t0) / 1000)
}

/**
 * The pack of a persona that chose the built-in sentence model: its vectors searched beside the
 * local ones. What the vectors hold does not change the search's cost, so seeded random unit
 * vectors stand in (embedding 100k units with the model takes hours); the query's own
 * embedding happens in the memory worker (~13 ms) and is not counted here.
 */
function packWithSentenceModel(store: MemoryStore, queries: string[], n: number): void {
  const unit = sentenceStandIns(store)
  const vectors = new Map([FIRST_QUERY, ...WARM_UP_QUERIES, ...queries].map((q) => [q, unit()]))
  const { first_pack_ms, ms } = steadyPacks(
    (query) =>
      buildPack(store, {
        query,
        budget: 2000,
        path: null,
        modelVector: { model: SENTENCE_MODEL, vector: vectors.get(query)! },
      }),
    queries,
  )
  print({
    bench: 'memory.pack',
    units: n,
    vectors: `hashed n-grams + ${SENTENCE_MODEL}`,
    budget_tokens: 2000,
    p50_ms: pct(ms, 50),
    p95_ms: pct(ms, 95),
    first_pack_ms,
    note: `the query is embedded in the memory worker (~13 ms), not counted; ${WARM_UP_NOTE}`,
  })
}

/**
 * The pack of a persona that chose no embedding model: the built-in word model's vectors (made
 * as the embed job makes them: every unit, its sentences too) searched beside the local ones,
 * and the query embedded on this thread as packAids does, inside the time taken.
 */
async function packWithWordModel(store: MemoryStore, queries: string[], n: number): Promise<void> {
  const t0 = performance.now()
  await embedDirty(store, WORDS_MODEL, (texts) => Promise.resolve(embedWords(texts)))
  const embedSeconds = (performance.now() - t0) / 1000
  const { first_pack_ms, ms } = steadyPacks((query) => {
    const vector = embedWords([query])[0]
    buildPack(store, {
      query,
      budget: 2000,
      path: null,
      ...(vector ? { modelVector: { model: WORDS_MODEL, vector } } : {}),
    })
  }, queries)
  print({
    bench: 'memory.pack',
    units: n,
    vectors: `hashed n-grams + ${WORDS_MODEL}`,
    persona: 'chose no embedding model (the default)',
    budget_tokens: 2000,
    p50_ms: pct(ms, 50),
    p95_ms: pct(ms, 95),
    first_pack_ms,
    // The whole memory embedded by the word model on one thread (the app's embed job does it in the worker).
    embed_all_s: +embedSeconds.toFixed(1),
    note: `includes the query's word-model embedding; ${WARM_UP_NOTE}`,
  })
}

async function synthetic(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-bench-memory-'))
  const file = join(dir, 'memory_bench.db')
  const store = openMemory(file)
  try {
    addAnchors(store)
    const queries = benchQueries()
    const rate10k = fill(store, 0, 10_000)
    print({ bench: 'memory.ingest', units: 10_000, units_per_s: Math.round(rate10k) })
    const pack = (n: number) => {
      const { first_pack_ms, ms } = steadyPacks(
        (query) => buildPack(store, { query, budget: 2000, path: null }),
        queries,
      )
      const tokens = queries.slice(0, 20).map((q) => buildPack(store, { query: q, budget: 2000, path: null }).tokens)
      print({
        bench: 'memory.pack',
        units: n,
        vectors: 'hashed n-grams (no word vectors file)',
        budget_tokens: 2000,
        p50_ms: pct(ms, 50),
        p95_ms: pct(ms, 95),
        first_pack_ms,
        max_pack_tokens: Math.max(...tokens),
        note: `includes the local query embedding (~0.05 ms); ${WARM_UP_NOTE}`,
      })
    }
    pack(10_000)
    // The word model first: the sentence model's stand-ins then replace its vectors (one model a memory).
    await packWithWordModel(store, queries, 10_000)
    packWithSentenceModel(store, queries, 10_000)
    const rate100k = fill(store, 10_000, 100_000)
    print({ bench: 'memory.ingest', units: 90_000, units_per_s: Math.round(rate100k) })
    pack(100_000)
    await packWithWordModel(store, queries, 100_000)
    packWithSentenceModel(store, queries, 100_000)
    // LOOMVERSE_BENCH_ONLY=pack: the pack timings alone, with the cross-conversation rule.
    if (only === 'pack') return reachPacks(store, dir, queries, 100_000, print, pct)

    const knn = store.prepare(
      'SELECT unit_id, distance FROM vec_units WHERE embedding MATCH ? AND k = 10 AND kind = ? AND state != 3',
    )
    const blobs = queries.map((q) => vectorBlob(embedLocal(q)))
    for (const [kind, name, rows] of [
      [UnitKind.EPISODE, 'episode', 70_000],
      [UnitKind.FACT, 'fact', 20_000],
    ] as const) {
      const s = timed(100, (i) => knn.all(blobs[i]!, kind))
      print({
        bench: 'memory.knn',
        via: 'vec0',
        vectors: 100_000,
        partition: name,
        partition_rows: rows,
        k: 10,
        p50_ms: pct(s, 50),
        p95_ms: pct(s, 95),
      })
    }
    // What the MemoryPack uses: the in-memory int16 index (vectorIndex.ts), k as the pack asks.
    const index = vectorIndexOf(store)
    const tLoad = performance.now()
    index.rebuild()
    const loadMs = performance.now() - tLoad
    const vectors = queries.map((q) => embedLocal(q))
    const filter = { excludeState: UnitState.ARCHIVED, sensitivityBelow: Sensitivity.SECRET }
    for (const [kind, name, rows, k] of [
      [UnitKind.EPISODE, 'episode', 70_000, 80],
      [UnitKind.FACT, 'fact', 20_000, 30],
    ] as const) {
      const s = timed(100, (i) => {
        index.sync()
        index.search(vectors[i]!, kind, k, filter)
      })
      print({
        bench: 'memory.knn',
        via: 'index',
        vectors: 100_000,
        partition: name,
        partition_rows: rows,
        k,
        p50_ms: pct(s, 50),
        p95_ms: pct(s, 95),
        index_load_ms: Math.round(loadMs),
      })
    }
    const fts = store.prepare('SELECT rowid FROM units_fts WHERE units_fts MATCH ? ORDER BY rowid DESC LIMIT 400')
    const rare = store.createUnit({ kind: UnitKind.EPISODE, payload: { user_text: 'zeppelinfahrt over the alps' } })
    const sRare = timed(200, () => fts.all('"zeppelinfahrt"'))
    const sCommon = timed(200, (i) => fts.all(`"${words[i % words.length]}"`))
    print({
      bench: 'memory.fts',
      rows: 100_000,
      rare_p95_ms: pct(sRare, 95),
      common_p95_ms: pct(sCommon, 95),
      p50_ms: pct(sCommon, 50),
    })
    store.deleteUnit(rare)

    // Re-index all 100k units in the memory worker while the main loop is watched.
    const entry = sourceWorker('memory')
    new JobQueue(store.db).enqueue('reindex', {}, { dedupeKey: 'reindex' })
    const busy = () =>
      (store.db.prepare('SELECT count(*) FROM jobs WHERE status IN (0, 1)').pluck().get() as number) > 0
    const host = new MemoryWorkerHost({
      entry,
      providers: () => [],
      busy,
      init: { pollMs: 200 },
      queue: () => new JobQueue(store.db),
    })
    const delay = monitorEventLoopDelay({ resolution: 1 })
    const t0 = performance.now()
    delay.enable()
    host.wake(file)
    // The main thread only polls meanwhile: the delay measured is what the re-index costs it.
    while (busy()) await new Promise((r) => setTimeout(r, 50))
    delay.disable()
    await host.stop()
    print({
      bench: 'memory.reindex',
      units: 100_001,
      seconds: +((performance.now() - t0) / 1000).toFixed(1),
      loop_delay_p99_ms: +(delay.percentile(99) / 1e6).toFixed(2),
      loop_delay_max_ms: +(delay.max / 1e6).toFixed(2),
    })
    // Last: it tells every episode at a node of a conversation graph.
    reachPacks(store, dir, queries, 100_001, print, pct)
  } finally {
    store.db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- LoCoMo evidence recall (locomo.ts): in-sample and out-of-sample, beside BM25 baselines

// LOOMVERSE_BENCH_ONLY=locomo: just the recall figures (tuning the pack builder); =pack: just the
// synthetic MemoryPack timings at 10k and 100k units, with and without the cross-conversation rule.
const only = process.env.LOOMVERSE_BENCH_ONLY
if (only !== 'pack')
  await locomo(process.env.LOOMVERSE_LOCOMO || resolve(repoRoot, '../shared/data/locomo/locomo_dev.json'), print)
if (only !== 'locomo') {
  await synthetic()
  if (only !== 'pack') modelKnn(print, pct)
}
