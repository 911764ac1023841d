import { takeDirty, writeModelVectors } from '../../main/memory/store/modelVectors'
import { SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import { LoopStatus, UnitKind } from '../../main/memory/store/enums'
import type { MemoryStore } from '../../main/memory/store/store'

// A synthetic long-lived memory, the same for the benchmark and the profiler (seeded, so
// every run sees the same units).

export const words =
  'tea coffee kyoto osaka tokyo hiking painting guitar piano novel garden cat dog sister brother mother father work project deadline meeting doctor dentist train bus bicycle river mountain beach summer winter spring autumn birthday concert museum library recipe curry ramen sushi soccer tennis yoga exam school teacher friend neighbour holiday festival camera photo letter email phone laptop movie anime manga game puzzle chess violin bakery market shrine temple castle forest lake island harbor airport hotel'.split(
    ' ',
  )
let seed = 42
const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32
export const pick = () => words[Math.floor(rand() * words.length)]!
export const sentence = (n: number) => Array.from({ length: n }, pick).join(' ')

/** 70% episodes, 20% facts, 5% summaries, 5% loops: what a long-lived memory roughly holds. */
export function fillMemory(store: MemoryStore, from: number, to: number): void {
  const base = 1_600_000_000
  store.db
    .transaction(() => {
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
    })
    .immediate()
}

/** The persona's anchors every pack carries: who it is, and its contract. */
export function addAnchors(store: MemoryStore): void {
  store.createUnit({
    kind: UnitKind.PERSONA,
    payload: { persona_text: 'You are Mika, a calm librarian who loves tea.' },
  })
  store.createUnit({ kind: UnitKind.CONTRACT, payload: { contract_text: 'Be honest; never give medical advice.' } })
}

/** Recall questions over the synthetic vocabulary. */
export function benchQueries(n = 200): string[] {
  return Array.from({ length: n }, () => `What did I say about ${pick()} and ${pick()} last time?`)
}

/**
 * Seeded random unit vectors as the built-in sentence model's, for every unit not embedded yet:
 * what they hold does not change a search's cost. Returns the generator, for query vectors.
 */
export function sentenceStandIns(store: MemoryStore): () => number[] {
  let seed = 11
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5
  const unit = () => {
    const v = Array.from({ length: 512 }, random)
    const norm = Math.hypot(...v)
    return v.map((x) => x / norm)
  }
  for (let batch = takeDirty(store.db, 5000); batch.length > 0; batch = takeDirty(store.db, 5000))
    writeModelVectors(
      store.db,
      SENTENCE_MODEL,
      // An episode's sentences too (embedJob.sentencesOf): LoCoMo's turns have 2.74 on average.
      batch.map((u) => ({
        ...u,
        vector: unit(),
        ...(u.kind === UnitKind.EPISODE ? { sentences: [unit(), unit(), unit()] } : {}),
      })),
    )
  return unit
}
