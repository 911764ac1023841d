import type { MemoryPack } from '@shared/contract'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openMemory } from '../../main/memory/store/db'
import { importLines } from '../../main/memory/import/importer'
import { buildPack } from '../../main/memory/pack/packBuilder'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import { embedWords, WORDS_MODEL } from '../../main/memory/retrieval/wordVectors'
import { embedDirty } from '../../main/memory/jobs/embedJob'
import { tuning } from '../../main/memory/retrieval/tuning'
import { bm25Baseline } from './bm25Baseline'
import type { Conversation } from './locomoData'
import { embedStore, questionVectors } from './sentenceVectors'

// Evidence recall at 2,000-token packs, offline: turns imported as with `--no-llm` (episodes,
// FTS and local vectors only), one pack per question, and the share of the questions' evidence
// turns that made it in. Beside it, on the same questions, two FTS5 BM25 baselines (unicode61
// and Porter-stemmed) packed into the same budget. Per category, per conversation, and the
// spread across conversations, so one lucky conversation cannot carry a mean.

export const BUDGET = 2000

interface Tally {
  found: number
  bm25: number
  porter: number
  total: number
  questions: number
}
const tally = (): Tally => ({ found: 0, bm25: 0, porter: 0, total: 0, questions: 0 })
const add = (a: Tally, b: Tally): Tally => ({
  found: a.found + b.found,
  bm25: a.bm25 + b.bm25,
  porter: a.porter + b.porter,
  total: a.total + b.total,
  questions: a.questions + b.questions,
})

/**
 * What a persona searches with beside the words and hashed n-grams: nothing (the word vectors'
 * file missing), the built-in word model (what a persona that chose no model gets), or the
 * built-in sentence model (chosen).
 */
type Vectors = 'none' | typeof WORDS_MODEL | typeof SENTENCE_MODEL

/** One conversation's tallies by category. */
async function measure(conversation: Conversation, model: Vectors): Promise<Map<number, Tally>> {
  const byCategory = new Map<number, Tally>()
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-recall-'))
  const store = openMemory(join(dir, 'memory_recall.db'))
  const bm25 = bm25Baseline(conversation)
  const porter = bm25Baseline(conversation, 'porter unicode61')
  try {
    importLines(store, conversation.lines.join('\n'))
    const questions = conversation.questions.map((q) => q.question)
    let vectors: Array<number[] | null> = []
    if (model === SENTENCE_MODEL) {
      await embedStore(store)
      vectors = await questionVectors(questions)
    } else if (model === WORDS_MODEL) {
      // As the embed job writes them, and as packAids embeds a query.
      await embedDirty(store, WORDS_MODEL, (texts) => Promise.resolve(embedWords(texts)))
      vectors = embedWords(questions)
    }
    for (const [n, q] of conversation.questions.entries()) {
      const vector = model !== 'none' ? vectors[n] : null
      const modelVector = vector && model !== 'none' ? { modelVector: { model, vector } } : {}
      const refs = packedRefs(buildPack(store, { query: q.question, budget: BUDGET, path: null, ...modelVector }))
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
  return byCategory
}

/** The external refs (LoCoMo dia_ids) of everything a pack holds. */
export function packedRefs(pack: MemoryPack): Set<string> {
  return new Set(pack.sections.flatMap((s) => s.items.flatMap((i) => i.refs.map((r) => r.id))))
}

const ratio = (n: number, d: number) => +(n / Math.max(1, d)).toFixed(4)
const figures = (t: Tally) => ({
  questions: t.questions,
  evidence_recall: ratio(t.found, t.total),
  bm25: ratio(t.bm25, t.total),
  bm25_porter: ratio(t.porter, t.total),
})

/** Min, max and standard deviation of per-conversation recall, ours and the baselines'. */
function spread(tallies: Tally[]) {
  const of = (pick: (t: Tally) => number) => {
    const xs = tallies.map((t) => pick(t) / Math.max(1, t.total))
    const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, xs.length))
    return { min: +Math.min(...xs).toFixed(4), max: +Math.max(...xs).toFixed(4), sd: +sd.toFixed(4) }
  }
  return { evidence_recall: of((t) => t.found), bm25: of((t) => t.bm25), bm25_porter: of((t) => t.porter) }
}

export interface RecallSplit {
  /** What the line says it is: "in-sample", "out-of-sample", "check". */
  split: string
  conversations: Conversation[]
}

/**
 * One JSON line per split and vectors: the local hashed vectors only (no word vectors file),
 * with the built-in word model (a persona that chose no embedding model), and with the built-in
 * sentence model (a persona that chose it).
 */
export async function evidenceRecall(
  bench: string,
  splits: RecallSplit[],
  print: (o: Record<string, unknown>) => void,
  extra: { tuned_on: string; protocol: string; categories?: Record<number, string> },
): Promise<void> {
  const name = (k: number) => extra.categories?.[k] ?? String(k)
  for (const model of ['none', WORDS_MODEL, SENTENCE_MODEL] as const)
    for (const { split, conversations } of splits) {
      const perConversation: Array<[string, Tally]> = []
      const byCategory = new Map<number, Tally>()
      for (const conversation of conversations) {
        const mine = await measure(conversation, model)
        perConversation.push([conversation.id, [...mine.values()].reduce(add, tally())])
        for (const [k, t] of mine) byCategory.set(k, add(byCategory.get(k) ?? tally(), t))
      }
      const all = perConversation.map(([, t]) => t).reduce(add, tally())
      print({
        bench,
        split,
        vectors: model === 'none' ? 'hashed n-grams (no word vectors file)' : `hashed n-grams + ${model}`,
        ...(model === WORDS_MODEL ? { persona: 'chose no embedding model (the default)' } : {}),
        tuned_on: extra.tuned_on,
        protocol: extra.protocol,
        conversations: conversations.map((c) => c.id),
        budget_tokens: BUDGET,
        ...figures(all),
        per_category: Object.fromEntries(
          [...byCategory.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [name(k), figures(v)]),
        ),
        per_conversation: Object.fromEntries(perConversation.map(([id, t]) => [id, figures(t)])),
        spread_across_conversations: spread(perConversation.map(([, t]) => t)),
        tuning,
      })
    }
}
