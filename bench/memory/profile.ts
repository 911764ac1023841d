// Per-stage timings of buildPack on the synthetic corpus of run.ts. Run with
//   npx tsx --tsconfig tsconfig.node.json bench/memory/profile.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMemory } from '../../main/memory/db'
import { embedLocal } from '../../main/memory/embedder'
import { LoopStatus, UnitKind } from '../../main/memory/enums'
import { buildPack } from '../../main/memory/scheduler'
import type { MemoryStore } from '../../main/memory/store'
import { vectorIndexOf } from '../../main/memory/vectorIndex'

const words =
  'tea coffee kyoto osaka tokyo hiking painting guitar piano novel garden cat dog sister brother mother father work project deadline meeting doctor dentist train bus bicycle river mountain beach summer winter spring autumn birthday concert museum library recipe curry ramen sushi soccer tennis yoga exam school teacher friend neighbour holiday festival camera photo letter email phone laptop movie anime manga game puzzle chess violin bakery market shrine temple castle forest lake island harbor airport hotel'.split(
    ' ',
  )
let seed = 42
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32
const pick = () => words[Math.floor(rand() * words.length)]!
const sentence = (n: number) => Array.from({ length: n }, pick).join(' ')

function fill(store: MemoryStore, from: number, to: number): void {
  const base = 1_600_000_000
  store.db.transaction(() => {
    for (let i = from; i < to; i++) {
      const r = i % 20
      const at = base + i * 600
      if (r < 14)
        store.createUnit({
          kind: UnitKind.EPISODE,
          source: 'bench',
          occurred_at: at,
          payload: { user_text: `I talked about ${sentence(12)}.`, reply_text: `That sounds like ${sentence(10)}.` },
        })
      else if (r < 18)
        store.createUnit({
          kind: UnitKind.FACT,
          occurred_at: at,
          payload: { predicate: 'likes', object_text: sentence(3), evidence_unit_ids_json: '[]' },
        })
      else if (r < 19)
        store.createUnit({
          kind: UnitKind.SUMMARY,
          occurred_at: at,
          payload: { scope_type: 1, scope_key: `day:${i}`, summary_text: sentence(40) },
        })
      else
        store.createUnit({
          kind: UnitKind.LOOP,
          occurred_at: at,
          payload: {
            status: i % 200 === 19 ? LoopStatus.OPEN : LoopStatus.CLOSED,
            loop_text: `Follow up on ${sentence(4)}`,
          },
        })
    }
  })()
}

function pct(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2)
}

const dir = mkdtempSync(join(tmpdir(), 'loomverse-profile-memory-'))
const store = openMemory(join(dir, 'memory_profile.db'))
try {
  store.createUnit({
    kind: UnitKind.PERSONA,
    payload: { persona_text: 'You are Mika, a calm librarian who loves tea.' },
  })
  store.createUnit({ kind: UnitKind.CONTRACT, payload: { contract_text: 'Be honest; never give medical advice.' } })
  const queries = Array.from({ length: 200 }, () => `What did I say about ${pick()} and ${pick()} last time?`)
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
    for (const q of queries) {
      const profile: Record<string, number> = {}
      const t = performance.now()
      buildPack(store, { query: q, budget: 2000, path: null, profile })
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
  fill(store, 0, 10_000)
  run(10_000)
  fill(store, 10_000, 100_000)
  run(100_000)
} finally {
  store.db.close()
  rmSync(dir, { recursive: true, force: true })
}
