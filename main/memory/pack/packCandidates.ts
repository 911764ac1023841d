import { classifyIntent, intentWeights, type Intent } from './intent'
import { eachFeatures } from '../retrieval/rankFeatures'
import { relevance } from '../retrieval/ranker'
import { unitsByIds, type Hit } from '../retrieval/hits'
import {
  addNeighbours,
  entityLinked,
  hybridRetrieve,
  type RetrievalLists,
  type RetrievalQuery,
} from '../retrieval/retrieval'
import { boostNamedSpeakers } from '../retrieval/speakers'
import { addTellers, boostNamedTime, namedTime } from '../retrieval/timeWindow'
import { LoopStatus, UnitKind } from '../store/enums'
import { nowSeconds, type MemoryStore, type UnitRow } from '../store/store'

// What a MemoryPack may hold, before the node's reach is asked (packBuilder.ts): the persona's
// anchors, the capsule, open loops and pinned facts, and what retrieval found, each with its
// value. None of it depends on the node being answered, only on the memory and the query.
//
// Run on a thread of its own (a worker with its own connection and indexes, caught up after each
// write, asked as soon as the turn knew its persona, its word lists slimmed for the copy back),
// it made /api/chat slower, not faster (issue 38, bench:api, 400 requests, 2 cores): the first
// delta's added p50 was 6.4–8.7 ms against 4.6–6.3 ms here. The search took ~1.1–1.5 ms there,
// its copy back ~0.25–0.4 ms, and the main thread had only ~0.5 ms of the turn left to do
// meanwhile, so it waited; with three busy threads on two cores the answer also came late.

export type Section = 'persona' | 'contract' | 'capsule' | 'loops' | 'facts' | 'summaries' | 'episodes'

export interface Candidate {
  unit: UnitRow
  section: Section
  value: number
  /** Why it is in, for what retrieval did not find; a find's reasons are written from `found` (whyOf). */
  why: string
  mandatory?: boolean
  /**
   * Found by retrieval (not an anchor, the capsule, a loop or a pinned fact): the hit, the
   * entity that linked it, and its relevance. Its reasons are written only when the inspector
   * reads the pack's sections: ~200 finds a pack, ~50 kept.
   */
  found?: { hit: Hit; link: string | undefined; relevance: number }
  /** Admitted from another conversation tree (eligibility). */
  elsewhere?: boolean
}

/** What finding a pack's candidates reads of its request (packBuilder.PackRequest). */
export interface CandidateQuery extends RetrievalQuery {
  /** SECRET units only when the user asked for them explicitly. */
  allowSecret?: boolean
  now?: number
  /** Overrides the rule-based intent (e.g. the lightweight model's answer). */
  intent?: Intent
  /** Fitting the ranker (bench/memory/fitRanker.ts): every found unit's features are handed here. */
  onFeatures?: (byUnit: ReadonlyMap<number, readonly number[]>) => void
}

/** The candidates, with what the inspector and the pack read beside them. */
export interface FoundCandidates {
  candidates: Candidate[]
  lists: RetrievalLists
  intent: Intent
  allowSecret: boolean
  now: number
}

/** Every candidate for a pack answering `request.query`; `lap` times the stages (profiling). */
export function findCandidates(
  store: MemoryStore,
  request: CandidateQuery,
  lap: (stage: string) => void,
): FoundCandidates {
  const now = request.now ?? nowSeconds()
  const { intent } = request.intent ? { intent: request.intent } : classifyIntent(request.query)
  const weights = intentWeights[intent]
  const allowSecret = request.allowSecret ?? explicitSecretAsk(request.query)
  lap('intent')

  const candidates: Candidate[] = []
  // Always in: the persona's anchors and its contract.
  for (const unit of unitsWhere(store, 'kind IN (4, 5) AND state != 3 ORDER BY pin DESC, id LIMIT 20')) {
    const active = store.payload(unit).is_active !== 0
    if (active)
      candidates.push({
        unit,
        section: unit.kind === UnitKind.PERSONA ? 'persona' : 'contract',
        value: 100,
        why: 'always injected',
        mandatory: true,
      })
  }
  // `now` is bound, not written into the SQL: one prepared statement serves every pack.
  const capsule = store
    .prepare(
      `SELECT * FROM units WHERE kind = 6 AND state != 3
       AND id IN (SELECT unit_id FROM payload_capsule WHERE expires_at IS NULL OR expires_at > ?)
       ORDER BY occurred_at DESC, id DESC LIMIT 5`,
    )
    .all(Math.floor(now)) as UnitRow[]
  // Newest first; only the newest one the branch may see is kept (packBuilder.ts).
  for (const unit of capsule) candidates.push({ unit, section: 'capsule', value: 20, why: 'latest short-term state' })
  // From the open loops' index: closed loops (most of them, in a long memory) are never read.
  const loops = store
    .prepare(
      `SELECT u.* FROM payload_loop l JOIN units u ON u.id = l.unit_id
       WHERE l.status = ${LoopStatus.OPEN} AND u.kind = 7 AND u.state != 3 ORDER BY u.occurred_at DESC LIMIT 15`,
    )
    .all() as UnitRow[]
  for (const unit of loops)
    candidates.push({ unit, section: 'loops', value: 4 * weights.loop + unit.pin, why: 'open loop' })
  lap('anchors')

  // Hybrid retrieval over facts, summaries and episodes.
  const { hits: fused, lists } = hybridRetrieve(store, request, allowSecret, now, lap)
  lap('fusion')
  const linked = entityLinked(store, request.query)
  lap('entities')
  // Units only an entity link brought: their rows were not read by the retrieval.
  const linkedOnly = [...linked.keys()].filter((id) => !fused.has(id))
  for (const unit of unitsByIds(store, linkedOnly)) fused.set(unit.id, { unit, score: 0, came: '' })
  boostNamedSpeakers(store, request.query, fused)
  const time = namedTime(store, request.query, now)
  addTellers(store, time, fused)
  boostNamedTime(time, fused)
  addNeighbours(store, fused)
  // An entity the query names lifts its units in the hand fusion, which the ranker reads
  // (rankFeatures.ts): LoCoMo, imported without a model, has no entities to fit a weight on.
  for (const id of linked.keys()) {
    const hit = fused.get(id)
    if (hit) hit.score += ENTITY_LINK
  }
  lap('boosts')
  // What each find is worth: the learned ranker's chance that it answers the query, from where
  // each search ranked it and the hand fusion's score among other things (rankFeatures.ts).
  const relevances = new Map<number, number>()
  const byUnit = request.onFeatures ? new Map<number, number[]>() : null
  eachFeatures(store, fused, lists, linked, time, (id, features) => {
    relevances.set(id, relevance(features))
    byUnit?.set(id, [...features])
  })
  if (byUnit) request.onFeatures?.(byUnit)
  lap('ranker')
  for (const [id, hit] of fused) {
    const { unit } = hit
    const score = relevances.get(id)!
    const found = { hit, link: linked.get(id), relevance: score }
    if (unit.kind === UnitKind.EPISODE)
      candidates.push({ unit, section: 'episodes', value: score * weights.episode, why: '', found })
    else if (unit.kind === UnitKind.FACT)
      candidates.push({ unit, section: 'facts', value: score * weights.fact, why: '', found })
    else if (unit.kind === UnitKind.SUMMARY)
      candidates.push({ unit, section: 'summaries', value: score * weights.summary, why: '', found })
  }
  // Pinned facts ride along even when the query does not reach them.
  for (const unit of unitsWhere(store, 'kind = 2 AND pin = 1 AND state != 3 ORDER BY id DESC LIMIT 20'))
    if (!fused.has(unit.id)) candidates.push({ unit, section: 'facts', value: 0.5 * weights.fact, why: 'pinned' })
  lap('candidates')
  return { candidates, lists, intent, allowSecret, now }
}

/** What a link to an entity the query names adds to a unit's fused score. */
const ENTITY_LINK = 0.25

function explicitSecretAsk(query: string): boolean {
  return /\b(secret|secrets)\b|秘密/i.test(query)
}

function unitsWhere(store: MemoryStore, where: string): UnitRow[] {
  return store.prepare(`SELECT * FROM units WHERE ${where}`).all() as UnitRow[]
}
