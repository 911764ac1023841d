// Prints what 2,000-token packs miss on LoCoMo conversations 0–2 only (the held-out ones are
// never read): each missed question, its gold evidence turns, and where retrieval ranked them.
//   npx tsx --tsconfig tsconfig.node.json bench/memory/misses.ts [category]
// LOOMVERSE_TUNE_SENTENCE=1 adds the built-in sentence model's vectors.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openMemory } from '../../main/memory/store/db'
import { importLines } from '../../main/memory/import/importer'
import { buildPack } from '../../main/memory/pack/packBuilder'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import { packedRefs } from './evidenceRecall'
import { relevance } from '../../main/memory/retrieval/ranker'
import { unitsByIds } from '../../main/memory/retrieval/hits'
import { readLocomo } from './locomoData'
import { embedStore, questionVectors } from './sentenceVectors'

const path = process.env.LOOMVERSE_LOCOMO || resolve(import.meta.dirname, '../../../shared/data/locomo/locomo_dev.json')
const inSample = (readLocomo(path) ?? []).slice(0, 3)
const only = process.argv[2] ? Number(process.argv[2]) : null
const sentence = process.env.LOOMVERSE_TUNE_SENTENCE === '1'
const dir = mkdtempSync(join(tmpdir(), 'loomverse-misses-'))
try {
  for (const [i, c] of inSample.entries()) {
    const store = openMemory(join(dir, `memory_${i}.db`))
    importLines(store, c.lines.join('\n'))
    if (sentence) await embedStore(store)
    const vectors = sentence ? await questionVectors(c.questions.map((q) => q.question)) : []
    const text = new Map(c.turns.map((t) => [t.id, `${t.speaker}: ${t.text}`]))
    for (const [n, q] of c.questions.entries()) {
      if (only !== null && q.category !== only) continue
      const modelVector = sentence ? { modelVector: { model: SENTENCE_MODEL, vector: vectors[n]! } } : {}
      let found: ReadonlyMap<number, readonly number[]> = new Map()
      const pack = buildPack(store, {
        query: q.question,
        budget: 2000,
        path: null,
        ...modelVector,
        onFeatures: (f) => (found = f),
      })
      const ranked = [...found].map(([id, f]) => [id, relevance(f)] as const).sort((a, b) => b[1] - a[1])
      const rankOf = new Map<string, number>()
      for (const u of unitsByIds(
        store,
        ranked.map(([id]) => id),
      ))
        for (const r of store.refs(u, []))
          rankOf.set(
            r.id,
            ranked.findIndex(([id]) => id === u.id),
          )
      const refs = packedRefs(pack)
      const missed = q.evidence.filter((e) => !refs.has(e))
      if (missed.length === 0) continue
      const items = pack.sections.flatMap((s) => s.items)
      console.log(`\n[${c.id} cat ${q.category}] ${q.question}   (packed ${items.length} items)`)
      for (const e of q.evidence)
        console.log(
          `  ${refs.has(e) ? 'HIT ' : 'MISS'} ${e} rank=${rankOf.get(e) ?? 'none'}/${ranked.length} ${text.get(e)?.slice(0, 160)}`,
        )
      for (const it of items.slice(0, 4)) console.log(`    packed: ${it.text.slice(0, 110)} | ${it.why.slice(-40)}`)
    }
    store.db.close()
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
