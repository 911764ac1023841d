// Tries retrieval settings on LoCoMo conversations 0–2 only (the in-sample split): the held-out
// conversations are never read here. Each argument is a JSON object of `tuning` overrides; one
// JSON line per setting. Run with
//   npx tsx --tsconfig tsconfig.node.json bench/memory/tune.ts '{}' '{"wordWeight":2}'
// LOOMVERSE_TUNE_SENTENCE=1 adds the built-in sentence model's vectors (the "meaning" ranking);
// LOOMVERSE_TUNE_WORDS=1 the built-in word model's (what a persona that chose no model searches).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openMemory } from '../../main/memory/store/db'
import { importLines } from '../../main/memory/import/importer'
import { buildPack } from '../../main/memory/pack/packBuilder'
import { tuning } from '../../main/memory/retrieval/tuning'
import { packedRefs } from './evidenceRecall'
import { readLocomo } from './locomoData'
import { personaConversations } from './personaConversations'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import { embedStore, questionVectors } from './sentenceVectors'
import { embedWords, WORDS_MODEL } from '../../main/memory/retrieval/wordVectors'
import { embedDirty } from '../../main/memory/jobs/embedJob'

const path = process.env.LOOMVERSE_LOCOMO || resolve(import.meta.dirname, '../../../shared/data/locomo/locomo_dev.json')
// LOOMVERSE_TUNE_SET=synthetic runs the same settings on the synthetic set instead: the check that
// a setting chosen on LoCoMo 0–2 is not LoCoMo-shaped (never a set to choose on).
const inSample =
  process.env.LOOMVERSE_TUNE_SET === 'synthetic' ? personaConversations() : (readLocomo(path) ?? []).slice(0, 3)
if (inSample.length === 0) throw new Error('no LoCoMo data: set LOOMVERSE_LOCOMO to its locomo_dev.json')
const dir = mkdtempSync(join(tmpdir(), 'loomverse-tune-'))
const defaults = { ...tuning }
try {
  const sentence = process.env.LOOMVERSE_TUNE_SENTENCE === '1'
  const words = !sentence && process.env.LOOMVERSE_TUNE_WORDS === '1'
  const model = sentence ? SENTENCE_MODEL : WORDS_MODEL
  const stores = inSample.map((c, i) => {
    const store = openMemory(join(dir, `memory_${i}.db`))
    importLines(store, c.lines.join('\n'))
    return store
  })
  const queryVectors: Array<Array<number[] | null>> = []
  for (const [i, c] of inSample.entries()) {
    const questions = c.questions.map((q) => q.question)
    if (sentence) await embedStore(stores[i]!)
    if (words) await embedDirty(stores[i]!, WORDS_MODEL, (texts) => Promise.resolve(embedWords(texts)))
    queryVectors.push(sentence ? await questionVectors(questions) : words ? embedWords(questions) : [])
  }
  for (const arg of process.argv.slice(2).length ? process.argv.slice(2) : ['{}']) {
    Object.assign(tuning, defaults, JSON.parse(arg) as Partial<typeof tuning>)
    const cat = new Map<number, [number, number]>()
    // Per conversation too: a setting that helps one and costs the others is fitted, not better.
    const conv = inSample.map((): [number, number] => [0, 0])
    inSample.forEach((c, i) => {
      for (const [n, q] of c.questions.entries()) {
        const vector = queryVectors[i]![n]
        const modelVector = vector ? { modelVector: { model, vector } } : {}
        const refs = packedRefs(buildPack(stores[i]!, { query: q.question, budget: 2000, path: null, ...modelVector }))
        const t = cat.get(q.category) ?? [0, 0]
        const found = q.evidence.filter((e) => refs.has(e)).length
        t[0] += found
        t[1] += q.evidence.length
        cat.set(q.category, t)
        conv[i]![0] += found
        conv[i]![1] += q.evidence.length
      }
    })
    const [found, total] = [...cat.values()].reduce((a, t) => [a[0] + t[0], a[1] + t[1]], [0, 0])
    const per = Object.fromEntries([...cat].sort((a, b) => a[0] - b[0]).map(([k, [f, t]]) => [k, +(f / t).toFixed(3)]))
    const perConversation = conv.map(([f, t]) => +(f / t).toFixed(3))
    console.log(
      JSON.stringify({
        settings: JSON.parse(arg) as unknown,
        recall: +(found / total).toFixed(4),
        per,
        perConversation,
      }),
    )
  }
  for (const s of stores) s.db.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}
