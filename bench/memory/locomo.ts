import type { MemoryPack } from '@shared/contract'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMemory } from '../../main/memory/db'
import { importLines } from '../../main/memory/importer'
import { buildPack } from '../../main/memory/scheduler'
import { SENTENCE_MODEL } from '../../main/memory/sentenceModel'
import { tuning } from '../../main/memory/tuning'
import { bm25Baseline } from './bm25Baseline'
import { readLocomo, type Conversation } from './locomoData'
import { embedStore, questionVectors } from './sentenceVectors'

// LoCoMo evidence recall at 2,000-token packs, offline: turns imported as with `--no-llm`
// (episodes, FTS and local vectors only), one pack per question, and the share of the
// questions' evidence turns that made it in. Beside it, on the same questions, FTS5 BM25
// baselines packed into the same budget.
//
// Discipline: every retrieval setting was chosen on conversations 0–2 (in-sample); 3–4 are
// reported as the out-of-sample figure and never used to choose anything.
// LOOMVERSE_LOCOMO_SPLIT=in prints the in-sample line only (what tuning runs look at).
//
// Each split is measured twice: with the local hashed vectors only, and with the built-in
// sentence model (sentenceModel.ts) as the persona's embedding model, as a persona that chose it
// runs. Both are offline: no LLM, no provider.

const BUDGET = 2000
const splits = [
  { split: 'in-sample', conversations: [0, 1, 2] },
  { split: 'out-of-sample', conversations: [3, 4] },
] as const

interface Tally {
  found: number
  bm25: number
  porter: number
  total: number
  questions: number
}
const tally = (): Tally => ({ found: 0, bm25: 0, porter: 0, total: 0, questions: 0 })

async function measure(
  conversation: Conversation,
  sentence: boolean,
  byCategory: Map<number, Tally>,
  packMs: number[],
  tokens: number[],
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-locomo-'))
  const store = openMemory(join(dir, 'memory_locomo.db'))
  const bm25 = bm25Baseline(conversation)
  const porter = bm25Baseline(conversation, 'porter unicode61')
  try {
    importLines(store, conversation.lines.join('\n'))
    if (sentence) await embedStore(store)
    const vectors = sentence ? await questionVectors(conversation.questions.map((q) => q.question)) : []
    for (const [n, q] of conversation.questions.entries()) {
      const modelVector = sentence ? { modelVector: { model: SENTENCE_MODEL, vector: vectors[n]! } } : {}
      const t = performance.now()
      const pack = buildPack(store, { query: q.question, budget: BUDGET, path: null, ...modelVector })
      packMs.push(performance.now() - t)
      tokens.push(pack.tokens)
      const refs = packedRefs(pack)
      const base = bm25.pack(q.question, BUDGET)
      const stemmed = porter.pack(q.question, BUDGET)
      const c = byCategory.get(q.category) ?? tally()
      c.found += q.evidence.filter((e) => refs.has(e)).length
      c.bm25 += q.evidence.filter((e) => base.has(e)).length
      c.porter += q.evidence.filter((e) => stemmed.has(e)).length
      c.total += q.evidence.length
      c.questions++
      byCategory.set(q.category, c)
    }
  } finally {
    bm25.close()
    porter.close()
    store.db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The external refs (LoCoMo dia_ids) of everything a pack holds. */
export function packedRefs(pack: MemoryPack): Set<string> {
  return new Set(pack.sections.flatMap((s) => s.items.flatMap((i) => i.refs.map((r) => r.id))))
}

const ratio = (n: number, d: number) => +(n / Math.max(1, d)).toFixed(4)

export async function locomo(
  path: string,
  print: (o: Record<string, unknown>) => void,
  pct: (samples: number[], p: number) => number,
): Promise<void> {
  const conversations = readLocomo(path)
  if (!conversations) {
    print({ bench: 'memory.locomo', skipped: `no LoCoMo data there; set LOOMVERSE_LOCOMO to its locomo_dev.json` })
    return
  }
  const only = process.env.LOOMVERSE_LOCOMO_SPLIT === 'in' ? 'in-sample' : null
  for (const sentence of [false, true])
    for (const { split, conversations: picked } of splits) {
      if (only && split !== only) continue
      const byCategory = new Map<number, Tally>()
      const packMs: number[] = []
      const tokens: number[] = []
      const chosen = picked.map((i) => conversations[i]).filter((c) => c !== undefined)
      for (const conversation of chosen) await measure(conversation, sentence, byCategory, packMs, tokens)
      const all = [...byCategory.values()].reduce(
        (a, c) => ({
          found: a.found + c.found,
          bm25: a.bm25 + c.bm25,
          porter: a.porter + c.porter,
          total: a.total + c.total,
          questions: a.questions + c.questions,
        }),
        tally(),
      )
      print({
        bench: 'memory.locomo',
        split,
        vectors: sentence ? `hashed n-grams + ${SENTENCE_MODEL}` : 'hashed n-grams',
        tuned_on: 'conversations 0-2',
        tuning,
        conversations: chosen.map((c) => c.id),
        questions: all.questions,
        budget_tokens: BUDGET,
        evidence_recall: ratio(all.found, all.total),
        bm25_recall: ratio(all.bm25, all.total),
        bm25_porter_recall: ratio(all.porter, all.total),
        per_category: Object.fromEntries(
          [...byCategory.entries()]
            .sort((a, b) => a[0] - b[0])
            .map(([k, v]) => [
              k,
              {
                questions: v.questions,
                evidence_recall: ratio(v.found, v.total),
                bm25: ratio(v.bm25, v.total),
                bm25_porter: ratio(v.porter, v.total),
              },
            ]),
        ),
        mean_pack_tokens: Math.round(tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length)),
        pack_p95_ms: pct(packMs, 95),
      })
    }
}
