import type { MemoryPack, MemoryUnitKind } from '@shared/contract'
import { joinCounted, tokenCount, tokenCountOfLines } from '../../kernel/tokens'
import { LOCAL_EMBEDDER } from '../store/embedder'
import { Sensitivity, UnitKind, UnitState, kindName } from '../store/enums'
import { hitReason } from '../retrieval/hits'
import { tuning } from '../retrieval/tuning'
import { rankingReasons, type RetrievalLists } from '../retrieval/retrieval'
import { itemLine } from '../store/itemText'
import { askedWords, trimmedToAsked } from './trimLine'
import { findCandidates, type Candidate, type CandidateQuery, type Section } from './packCandidates'
import { logHeadsOf } from '../store/logHeads'
import { unitRowsOf } from '../store/unitRows'
import { isoDate, type MemoryStore, type UnitRow } from '../store/store'

export interface PackRequest extends CandidateQuery {
  budget: number
  /**
   * What the node being answered may remember: its active path (root → the node), and with
   * `elsewhere` the conversation trees that share no ancestor with it; units from the other
   * branches of its own tree are not eligible. Null: no restriction (imports, the inspector).
   */
  path: PathMembership | null
  intentBy?: 'rules' | 'model'
  /** Profiling: milliseconds spent per stage are added here (bench/memory/profile.ts). */
  profile?: Record<string, number>
}

const sectionTitles: Record<Section, string> = {
  persona: 'Who you are',
  contract: 'Your agreement with the user',
  capsule: 'Current state',
  loops: 'Open loops',
  facts: 'Facts',
  summaries: 'Summaries',
  episodes: 'Episodes',
}
const sectionOrder: Section[] = ['persona', 'contract', 'capsule', 'loops', 'facts', 'summaries', 'episodes']
const HEADER = '# Memory (what you remember; use it when it helps, never invent beyond it)'

/** A candidate with its text as rendered and, for an episode, the day it is listed under. */
type Packable = Candidate & { text: string; bullet: string; day: string | null }

/**
 * How many of retrieval's finds are read and weighed for a pack: about three times what fits
 * (a packed item averages ~40 tokens). Reading and weighing all of them (~300 at 10k units)
 * was a third of a pack's time. On LoCoMo conversations 0–2 any cut from 70 finds up leaves
 * every pack as it was; 50 loses a little.
 */
function foundKept(budget: number): number {
  return Math.max(100, Math.ceil(budget / 16))
}

/** A pack's text, chosen; the rest of it (the sections the inspector shows) read when asked. */
export interface ChosenPack {
  text: string
  /** The whole MemoryPack, its sections read the first time this is called. */
  details(): MemoryPack
}

/** buildPack's MemoryPack, sections and all (the inspector, memory_pack). */
export function buildPack(store: MemoryStore, request: PackRequest): MemoryPack {
  return choosePack(store, request).details()
}

/**
 * The pack builder (seed 004's Scheduler): chooses a MemoryPack from the persona's memory for one query.
 * Persona and contract always go in; then capsule, open loops, facts, summaries and episodes
 * found by hybrid retrieval (BM25 words, FTS5 trigrams and KNN fused by rank, recency and
 * salience), plus units linked to entities the query names; each find is worth the learned
 * ranker's chance that it answers (ranker.ts). Items are packed greedily by value per token;
 * the rendered text never exceeds the budget.
 */
export function choosePack(store: MemoryStore, request: PackRequest): ChosenPack {
  // The change logs' heads are read once for the whole pack, not by each kept index (logHeads.ts).
  return logHeadsOf(store.db).during(() => choose(store, request))
}

function choose(store: MemoryStore, request: PackRequest): ChosenPack {
  const prof = request.profile
  let mark = performance.now()
  const lap = (stage: string) => {
    if (!prof) return
    const t = performance.now()
    prof[stage] = (prof[stage] ?? 0) + t - mark
    mark = t
  }
  const { candidates, lists, intent, allowSecret, now } = findCandidates(store, request, lap)

  const eligible = eligibility(
    store,
    candidates.map((c) => c.unit),
    request.path,
    allowSecret,
  )
  lap('eligibility')
  const facts = closedFacts(
    store,
    candidates.filter((c) => c.section === 'facts').map((c) => c.unit.id),
    now,
  )
  // The capsule is the short-term state of the conversation being had (seed 002: its tempo):
  // another conversation's mood and focus would only mislead this one.
  const usable = candidates.filter(
    (c) =>
      eligible.ok.has(c.unit.id) &&
      !facts.has(c.unit.id) &&
      !(c.section === 'capsule' && eligible.elsewhere.has(c.unit.id)),
  )
  // Another conversation's memories weigh as this one's do (relevance and recency, above); the
  // reason says where they came from, and their refs name the node ("why remembered").
  for (const c of usable) if (eligible.elsewhere.has(c.unit.id)) c.elsewhere = true
  // Of what retrieval found, only the most valuable can make the pack: the rest are not read.
  const found = usable.filter((c) => c.found).sort((a, b) => b.value - a.value)
  const kept = new Set(found.slice(0, foundKept(request.budget)))
  const packable = usable.filter((c) => !c.found || kept.has(c))
  const itemLines = unitRowsOf(store).linesOf(packable.map((c) => c.unit))
  lap('texts')
  // Made only if a long turn is to be trimmed: a pattern compiled for nothing, most packs.
  let asked: RegExp | null | undefined
  const seen = new Set<string>()
  const pool: Array<Packable & { estimate: number }> = []
  let capsuleTaken = false
  for (const c of packable) {
    if (c.section === 'capsule' && capsuleTaken) continue
    if (c.section === 'capsule') capsuleTaken = true
    const kept = itemLines.get(c.unit.id)
    const line = kept !== undefined ? kept : itemLine(store.text(c.unit))
    // Finds that would read the same in the pack are one.
    if (!line || seen.has(line.key)) continue
    seen.add(line.key)
    // A long turn retrieval found is packed as its sentences that hold the query's words (trimLine.ts).
    const text =
      c.found && c.unit.kind === UnitKind.EPISODE && c.unit.tokens > tuning.trimTurnsOver
        ? trimmedToAsked(line.text, (asked ??= askedWords(request.query)))
        : line.text
    const bullet = text === line.text ? line.bullet : `- ${text}`
    const day = c.unit.kind === UnitKind.EPISODE && c.unit.occurred_at ? isoDate(c.unit.occurred_at) : null
    // The stored count of the full text (of a trimmed one, its share by characters), plus the
    // line's own prefix ("- ", or more for other kinds' longer lines); exact counts come at the end.
    const whole = Math.min(c.unit.tokens, Math.ceil(line.text.length / 2))
    const estimate = Math.ceil((whole * text.length) / Math.max(1, line.text.length)) + (day ? 2 : 8)
    // One shape for every item (a spread copy made each pool's items of mixed shapes).
    pool.push({
      unit: c.unit,
      section: c.section,
      value: c.value,
      why: c.why,
      mandatory: c.mandatory,
      found: c.found,
      elsewhere: c.elsewhere,
      text,
      bullet,
      day,
      estimate,
    })
  }
  lap('pool')

  // Greedy by value per token, mandatory items first. A find's value is the ranker's chance
  // that it answers; its length is one of the ranker's features, so a long turn that holds the
  // answer is not left out for short, barely relevant lines. (A length term on top,
  // value × tokens^e, did not help: held out within LoCoMo 0–2, e = 0 / 0.3 / 0.7 gave 0.826 /
  // 0.826 / 0.817 hashed-only and 0.876 / 0.872 / 0.869 with the sentence model.)
  pool.sort((a, b) => Number(!!b.mandatory) - Number(!!a.mandatory) || density(b) - density(a))
  const headerCost = tokenCount(HEADER) + 2
  let used = headerCost
  const chosen: typeof pool = []
  const opened = new Set<string>()
  for (const c of pool) {
    const sectionCost = opened.has(c.section) ? 0 : tokenCount(sectionTitles[c.section]) + 4
    const dayCost = !c.day || opened.has(c.day) ? 0 : DAY_LINE_TOKENS
    if (used + sectionCost + dayCost + c.estimate > request.budget) continue
    used += sectionCost + dayCost + c.estimate
    opened.add(c.section)
    if (c.day) opened.add(c.day)
    chosen.push(c)
  }
  // Exact count of what is sent; drop the least valuable items until it fits.
  let lines = render(chosen)
  let tokens = tokenCountOfLines(lines)
  while (tokens > request.budget && chosen.length > 0) {
    let worst = 0
    for (let i = 1; i < chosen.length; i++) {
      const w = chosen[worst]!
      const c = chosen[i]!
      if (Number(!!c.mandatory) < Number(!!w.mandatory) || density(c) < density(w)) worst = i
    }
    chosen.splice(worst, 1)
    lines = render(chosen)
    tokens = tokenCountOfLines(lines)
  }
  lap('pack+count')

  const text = joinCounted(lines, tokens)
  // The sections only serve the inspector ("why remembered"): a reply's pack has them read once
  // its request has left (memory.packFor), not before.
  let details: MemoryPack | null = null
  return {
    text,
    details: () =>
      (details ??= {
        tokens,
        intent,
        intent_by: request.intent ? (request.intentBy ?? 'model') : 'rules',
        vectors: [LOCAL_EMBEDDER, ...(request.modelVector ? [request.modelVector.model] : [])],
        sections: sectionsOf(store, chosen, lists),
        text,
      }),
  }
}

function sectionsOf(store: MemoryStore, chosen: readonly Packable[], lists: RetrievalLists): MemoryPack['sections'] {
  const evidence = store.evidenceOfEach(chosen.map((c) => c.unit.id))
  let ranked: Map<number, string> | null = null
  const rankedWhy = (id: number) => (ranked ??= rankingReasons(lists)).get(id) ?? ''
  return sectionOrder
    .map((section) => ({
      kind: section,
      items: chosen
        .filter((c) => c.section === section)
        .map((c) => ({
          unit_id: c.unit.id,
          kind: kindName(c.unit.kind) as MemoryUnitKind,
          text: c.day ? `[${c.day}] ${c.text}` : c.text,
          tokens: tokenCount(c.bullet),
          refs: store.refs(c.unit, evidence.get(c.unit.id) ?? []),
          why: `${whyOf(c, rankedWhy) || c.section} (value ${c.value.toFixed(3)})`,
        })),
    }))
    .filter((s) => s.items.length > 0)
}

/** Why a candidate is in the pack, as the inspector shows it. */
function whyOf(c: Candidate, ranked: (id: number) => string): string {
  const { found } = c
  const why = found
    ? [hitReason(found.hit, ranked), found.link && `linked to ${found.link}`, `relevance ${found.relevance.toFixed(2)}`]
        .filter(Boolean)
        .join('; ')
    : c.why
  if (!c.elsewhere) return why
  return why ? `${why}; ${ELSEWHERE}` : ELSEWHERE
}

function density(c: { value: number; estimate: number }): number {
  return c.value / c.estimate
}

/**
 * Episodes are grouped under their day, written once: a date on every line cost ~7 tokens an
 * item, about a seventh of a 2,000-token pack of chat turns.
 */
const DAY_LINE_TOKENS = tokenCount('### 2024-01-01') + 1

/** The pack's lines (joined with line breaks, its text); none for an empty pack. */
function render(chosen: readonly Packable[]): string[] {
  if (chosen.length === 0) return []
  const parts = [HEADER]
  for (const section of sectionOrder) {
    const items = chosen.filter((c) => c.section === section)
    if (items.length === 0) continue
    parts.push(`## ${sectionTitles[section]}`)
    // Episodes read best in the order they happened.
    if (section === 'episodes') items.sort((a, b) => (a.unit.occurred_at ?? 0) - (b.unit.occurred_at ?? 0))
    let day: string | null = null
    for (const c of items) {
      if (c.day && c.day !== day) parts.push(`### ${c.day}`)
      day = c.day
      parts.push(c.bullet)
    }
  }
  return parts
}

/** What a find admitted from another conversation tree says among its reasons. */
const ELSEWHERE = 'from another conversation'

/**
 * What a pack's node may remember: which nodes are on its active path (a Set, or a lazy
 * stand-in that walks the graph only when asked), and which others lie where its memories
 * reach (memory/pack/reach.ts).
 */
export interface PathMembership {
  has(nodeId: string): boolean
  /**
   * Of these nodes, none on the path, the ones in a conversation tree that shares no ancestor
   * with the node and is not kept private: what the persona lived through in another
   * conversation. Absent: the path alone (a private conversation; jobs' and tests' sets).
   */
  elsewhere?(nodeIds: readonly string[]): ReadonlySet<string>
}

export interface Eligible {
  ok: Set<number>
  /** Of `ok`, the units admitted only because their evidence lies in another conversation tree. */
  elsewhere: Set<number>
}

/**
 * Which candidates may be injected: not archived, not SECRET unless asked, and — for a pack
 * built for a node — from that node's reach. An episode counts when its node is on the active
 * path, or lies in another conversation tree the node may draw on (`path.elsewhere`); one on
 * another branch of the node's own tree does not. Imported episodes have no node: every branch
 * has them. A derived unit counts only when every episode it rests on does. The user's
 * promotion to global overrides all of it.
 */
export function eligibility(
  store: MemoryStore,
  units: readonly UnitRow[],
  path: PathMembership | null,
  allowSecret: boolean,
): Eligible {
  const ok = new Set<number>()
  const elsewhere = new Set<number>()
  type Origin = { origin_node_id: string | null; is_global: number }
  const here = (u: Origin) =>
    path === null || u.is_global === 1 || u.origin_node_id === null || path.has(u.origin_node_id)
  let rows: Array<Origin & { id: number }> = []
  if (path !== null && units.length > 0) {
    rows = store
      .prepare(
        `SELECT ue.unit_id AS id, e.origin_node_id, e.is_global FROM unit_evidence ue
         JOIN units e ON e.id = ue.evidence_unit_id
         WHERE ue.unit_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(units.map((u) => u.id))) as Array<Origin & { id: number }>
  }
  // The nodes off the path are asked about together: one look at the graph per pack.
  const away = new Set<string>()
  for (const u of [...units, ...rows]) if (!here(u)) away.add(u.origin_node_id!)
  const reached = away.size > 0 && path?.elsewhere ? path.elsewhere([...away]) : new Set<string>()
  const far = (u: Origin) => !here(u) && reached.has(u.origin_node_id!)
  const blocked = new Set<number>()
  const farEvidence = new Set<number>()
  for (const r of rows) {
    if (far(r)) farEvidence.add(r.id)
    else if (!here(r)) blocked.add(r.id)
  }
  for (const u of units) {
    if (u.state === UnitState.ARCHIVED) continue
    if (u.sensitivity === Sensitivity.SECRET && !allowSecret) continue
    if (u.is_global !== 1) {
      if (blocked.has(u.id) || !(here(u) || far(u))) continue
      if (far(u) || farEvidence.has(u.id)) elsewhere.add(u.id)
    }
    ok.add(u.id)
  }
  return { ok, elsewhere }
}

/** Facts whose validity ended (superseded): kept for the record, not injected as current. */
function closedFacts(store: MemoryStore, ids: number[], now: number): Set<number> {
  if (ids.length === 0) return new Set()
  const rows = store
    .prepare(
      `SELECT unit_id AS id FROM payload_fact WHERE unit_id IN (SELECT value FROM json_each(?))
       AND valid_to IS NOT NULL AND valid_to <= ?`,
    )
    .all(JSON.stringify(ids), now) as Array<{ id: number }>
  return new Set(rows.map((r) => r.id))
}
