// Per-stage timings of buildPack on the synthetic corpus of run.ts. Run with
//   npx tsx --tsconfig tsconfig.node.json bench/memory/profile.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMemory } from '../../main/memory/store/db'
import { embedLocal } from '../../main/memory/store/embedder'
import { UnitKind } from '../../main/memory/store/enums'
import { buildPack } from '../../main/memory/pack/packBuilder'
import { vectorIndexOf } from '../../main/memory/retrieval/vectorIndex'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import { addAnchors, benchQueries, fillMemory, sentenceStandIns } from './syntheticMemory'

const fill = fillMemory

function pct(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2)
}

const dir = mkdtempSync(join(tmpdir(), 'loomverse-profile-memory-'))
const store = openMemory(join(dir, 'memory_profile.db'))
try {
  addAnchors(store)
  const queries = benchQueries()
  const run = (units: number) => {
    for (const q of queries.slice(0, 20)) buildPack(store, { query: q, budget: 2000, path: null })
    const index = vectorIndexOf(store)
    let t0 = performance.now()
    for (let i = 0; i < 200; i++) index.sync()
    const syncMs = (performance.now() - t0) / 200
    const vec = new Float32Array(256)
    t0 = performance.now()
    for (const q of queries) {
      vec.set(embedLocal(q))
      index.search(vec, UnitKind.EPISODE, 80, { excludeState: 3, sensitivityBelow: 2 })
    }
    const searchMs = (performance.now() - t0) / queries.length
    console.log(JSON.stringify({ syncMs, episodeSearchMs: searchMs }))
    const stages = new Map<string, number[]>()
    const total: number[] = []
    // LOOMVERSE_PROFILE_SENTENCE=1: as a persona with the built-in sentence model (stand-in vectors).
    const unit = process.env.LOOMVERSE_PROFILE_SENTENCE === '1' ? sentenceStandIns(store) : null
    for (const q of queries) {
      const profile: Record<string, number> = {}
      const modelVector = unit ? { modelVector: { model: SENTENCE_MODEL, vector: unit() } } : {}
      const t = performance.now()
      buildPack(store, { query: q, budget: 2000, path: null, profile, ...modelVector })
      total.push(performance.now() - t)
      for (const [k, v] of Object.entries(profile)) stages.set(k, [...(stages.get(k) ?? []), v])
    }
    console.log(
      JSON.stringify({
        units,
        index: { ...vectorIndexOf(store).stats },
        total: { p50: pct(total, 50), p95: pct(total, 95) },
        ...Object.fromEntries(
          [...stages].map(([k, v]) => [
            k,
            { mean: +(v.reduce((a, b) => a + b, 0) / v.length).toFixed(2), p95: pct(v, 95) },
          ]),
        ),
      }),
    )
  }
  // LOOMVERSE_PROFILE_SMALL=1: also at 1k units, about a local API persona's memory after a few hundred turns.
  if (process.env.LOOMVERSE_PROFILE_SMALL === '1') {
    fill(store, 0, 1_000)
    run(1_000)
  }
  fill(store, process.env.LOOMVERSE_PROFILE_SMALL === '1' ? 1_000 : 0, 10_000)
  run(10_000)
  fill(store, 10_000, 100_000)
  run(100_000)
} finally {
  store.db.close()
  rmSync(dir, { recursive: true, force: true })
}
