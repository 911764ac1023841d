import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMemory } from '../../main/memory/store/db'
import { UnitKind } from '../../main/memory/store/enums'
import { nearestByModel, writeModelVectors } from '../../main/memory/store/modelVectors'

/**
 * KNN over an embedding model's dense vectors (sqlite-vec's vec0, exact, in the kind
 * partition) at the sizes a long companion reaches: what a pack adds when the persona has an
 * embedding model, beside the query's own round trip to the provider.
 */
export function modelKnn(print: (o: Record<string, unknown>) => void, pct: (s: number[], p: number) => number): void {
  const dims = 768
  for (const units of [10_000, 50_000]) {
    const dir = mkdtempSync(join(tmpdir(), 'loomverse-modelknn-'))
    const store = openMemory(join(dir, 'memory_bench.db'))
    try {
      let seed = 7
      const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5
      const vector = () => Array.from({ length: dims }, random)
      const rows = []
      for (let i = 1; i <= units; i++) rows.push({ id: i, kind: UnitKind.EPISODE, gen: 0, vector: vector() })
      const t = performance.now()
      for (let i = 0; i < rows.length; i += 1000) writeModelVectors(store.db, 'bench:model', rows.slice(i, i + 1000))
      const writeMs = performance.now() - t
      const samples: number[] = []
      for (let q = 0; q < 40; q++) {
        const query = vector()
        const s = performance.now()
        nearestByModel(store.db, 'bench:model', query, UnitKind.EPISODE, 80)
        samples.push(performance.now() - s)
      }
      print({
        bench: 'memory.model_knn',
        vectors: units,
        dims,
        k: 80,
        p50_ms: pct(samples, 50),
        p95_ms: pct(samples, 95),
        write_per_s: Math.round(units / (writeMs / 1000)),
      })
    } finally {
      store.db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
