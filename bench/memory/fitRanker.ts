// Fits the learned ranker (main/memory/retrieval/ranker.ts) on LoCoMo conversations 0–2 only, and writes
// its weights to main/memory/retrieval/rankerWeights.ts. The held-out conversations (3–4) are never read.
//   npx tsx --tsconfig tsconfig.node.json bench/memory/fitRanker.ts [--dry]
// Every unit a pack's retrieval found is one example: its FEATURES (rankFeatures.ts), and
// whether it is one of the question's evidence turns. Packs run both ways the bench measures:
// with the hashed n-grams only, and with the built-in sentence model beside them.
//
// Before writing, each conversation is held out in turn: fitted on the other two, its packs are
// measured against a model given the hand fusion's score alone (fitted the same way). One JSON
// line per held-out conversation, then the fit on all three. --dry prints and writes nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { format, resolveConfig } from 'prettier'
import { openMemory } from '../../main/memory/store/db'
import { importLines } from '../../main/memory/import/importer'
import { FEATURES } from '../../main/memory/retrieval/rankFeatures'
import { ranker, type RankerModel } from '../../main/memory/retrieval/ranker'
import { unitsByIds } from '../../main/memory/retrieval/hits'
import { buildPack, type PackRequest } from '../../main/memory/pack/packBuilder'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import type { MemoryStore } from '../../main/memory/store/store'
import { packedRefs } from './evidenceRecall'
import { readLocomo, type Conversation } from './locomoData'
import { embedStore, questionVectors } from './sentenceVectors'

/**
 * L2 penalty on the standardised weights (not the bias). Chosen by the held-out lines below
 * (conversations 0–2): 1, 10 and 100 gave hashed 0.822 / 0.826 / 0.826 and with the sentence
 * model 0.877 / 0.876 / 0.869, mean over the three held out.
 */
const PENALTY = 10
const BUDGET = 2000

const repoRoot = resolve(import.meta.dirname, '../..')
const path = process.env.LOOMVERSE_LOCOMO || resolve(repoRoot, '../shared/data/locomo/locomo_dev.json')
const inSample = (readLocomo(path) ?? []).slice(0, 3)
if (inSample.length < 3) throw new Error('no LoCoMo data: set LOOMVERSE_LOCOMO to its locomo_dev.json')

interface Example {
  features: readonly number[]
  evidence: boolean
}
/** A question as packed one way: its request, and its evidence. */
interface Asked {
  request: PackRequest
  evidence: string[]
}
interface Prepared {
  store: MemoryStore
  asked: Asked[]
}

async function prepare(conversation: Conversation, dir: string, n: number): Promise<Prepared> {
  const store = openMemory(join(dir, `memory_${n}.db`))
  importLines(store, conversation.lines.join('\n'))
  await embedStore(store)
  const vectors = await questionVectors(conversation.questions.map((q) => q.question))
  const asked = conversation.questions.flatMap((q, i) => {
    const request = { query: q.question, budget: BUDGET, path: null }
    const modelVector = { model: SENTENCE_MODEL, vector: vectors[i]! }
    return [
      { request, evidence: q.evidence },
      { request: { ...request, modelVector }, evidence: q.evidence },
    ]
  })
  return { store, asked }
}

/** Every found unit of every question's pack, labelled. */
function examples({ store, asked }: Prepared): Example[] {
  const out: Example[] = []
  for (const { request, evidence } of asked) {
    let found: ReadonlyMap<number, readonly number[]> = new Map()
    buildPack(store, { ...request, onFeatures: (byUnit) => (found = byUnit) })
    for (const unit of unitsByIds(store, [...found.keys()])) {
      const refs = store.refs(unit, []).map((r) => r.id)
      out.push({ features: found.get(unit.id)!, evidence: refs.some((r) => evidence.includes(r)) })
    }
  }
  return out
}

/**
 * L2-penalised logistic regression by Newton's method on standardised features; `only` keeps
 * the listed features (the others get weight 0).
 */
function fit(data: readonly Example[], only?: ReadonlySet<number>): RankerModel {
  const d = FEATURES.length
  const used = [...Array(d).keys()].filter((j) => !only || only.has(j))
  const mean = Array<number>(d).fill(0)
  const scale = Array<number>(d).fill(1)
  for (const j of used) {
    const values = data.map((e) => e.features[j]!)
    mean[j] = values.reduce((a, b) => a + b, 0) / values.length
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean[j]!) ** 2, 0) / values.length)
    scale[j] = sd > 1e-9 ? sd : 1
  }
  const rows = data.map((e) => [1, ...used.map((j) => (e.features[j]! - mean[j]!) / scale[j]!)])
  const k = used.length + 1
  let w = Array<number>(k).fill(0)
  for (let iteration = 0; iteration < 50; iteration++) {
    const gradient = w.map((wi, i) => (i === 0 ? 0 : PENALTY * wi))
    const hessian = Array.from({ length: k }, (_, i) =>
      Array.from({ length: k }, (_, j) => (i === j && i > 0 ? PENALTY : 0)),
    )
    rows.forEach((x, n) => {
      const p = 1 / (1 + Math.exp(-x.reduce((a, v, i) => a + v * w[i]!, 0)))
      const r = p - Number(data[n]!.evidence)
      const s = p * (1 - p)
      for (let i = 0; i < k; i++) {
        gradient[i]! += r * x[i]!
        for (let j = 0; j <= i; j++) hessian[i]![j]! += s * x[i]! * x[j]!
      }
    })
    for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) hessian[i]![j] = hessian[j]![i]!
    const step = solve(hessian, gradient)
    w = w.map((wi, i) => wi - step[i]!)
    if (Math.max(...step.map(Math.abs)) < 1e-8) break
  }
  const weights = Array<number>(d).fill(0)
  used.forEach((j, i) => (weights[j] = w[i + 1]!))
  return { features: [...FEATURES], mean, scale, weights, bias: w[0]! }
}

/** Solves a x = b (a symmetric positive definite) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]!])
  for (let c = 0; c < n; c++) {
    let pivot = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r
    ;[m[c], m[pivot]] = [m[pivot]!, m[c]!]
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!
    }
  }
  const x = Array<number>(n).fill(0)
  for (let r = n - 1; r >= 0; r--) {
    let v = m[r]![n]!
    for (let j = r + 1; j < n; j++) v -= m[r]![j]! * x[j]!
    x[r] = v / m[r]![r]!
  }
  return x
}

/** Evidence recall of the packs, hashed-only and with the sentence model, under a model. */
function recall({ store, asked }: Prepared, model: RankerModel): { hashed: number; sentence: number } {
  Object.assign(ranker, model)
  const tally = { hashed: { found: 0, total: 0 }, sentence: { found: 0, total: 0 } }
  for (const { request, evidence } of asked) {
    const refs = packedRefs(buildPack(store, request))
    const t = tally[request.modelVector ? 'sentence' : 'hashed']
    t.found += evidence.filter((e) => refs.has(e)).length
    t.total += evidence.length
  }
  const ratio = ({ found, total }: { found: number; total: number }) => +(found / total).toFixed(4)
  return { hashed: ratio(tally.hashed), sentence: ratio(tally.sentence) }
}

const dir = mkdtempSync(join(tmpdir(), 'loomverse-fit-'))
const shipped = { ...ranker }
// The examples do not depend on the model (a pack reads the features before weighing them),
// but a pack needs one: a neutral one while the shipped weights may be for other features.
const zeros = FEATURES.map(() => 0)
Object.assign(ranker, { features: [...FEATURES], mean: zeros, scale: zeros.map(() => 1), weights: zeros, bias: 0 })
const prepared: Prepared[] = []
try {
  for (const [n, c] of inSample.entries()) prepared.push(await prepare(c, dir, n))
  const data = prepared.map(examples)
  for (const [held, conversation] of inSample.entries()) {
    const train = data.filter((_, n) => n !== held).flat()
    const learned = recall(prepared[held]!, fit(train))
    const fusionOnly = recall(prepared[held]!, fit(train, new Set([0])))
    console.log(
      JSON.stringify({ bench: 'memory.ranker_held_out', held_out: conversation.id, learned, fusion_only: fusionOnly }),
    )
  }
  const model = fit(data.flat())
  console.log(
    JSON.stringify({
      bench: 'memory.ranker_fit',
      conversations: inSample.map((c) => c.id),
      examples: data.flat().length,
      penalty: PENALTY,
    }),
  )
  if (!process.argv.includes('--dry')) {
    const target = resolve(repoRoot, 'main/memory/retrieval/rankerWeights.ts')
    const text = `// Written by bench/memory/fitRanker.ts (LoCoMo conversations 0–2 only): fit again, do not edit.
// Each weight is for its feature standardised by mean and scale; see ranker.ts.
export const fitted = ${JSON.stringify({ ...model, weights: model.weights.map((w) => +w.toFixed(6)), bias: +model.bias.toFixed(6), mean: model.mean.map((v) => +v.toFixed(6)), scale: model.scale.map((v) => +v.toFixed(6)) })}
`
    writeFileSync(target, await format(text, { ...(await resolveConfig(target)), filepath: target }))
  }
} finally {
  Object.assign(ranker, shipped)
  for (const p of prepared) p.store.db.close()
  rmSync(dir, { recursive: true, force: true })
}
