import { z } from 'zod'
import { PermanentJobError } from '../../kernel/jobs/handlers'
import { EntityType, SummaryScopeType, UnitKind, UnitState, type SummaryScopeType as ScopeType } from '../store/enums'
import { askJson, type MemoryJobHandler } from './jobContext'
import { isoDate, type MemoryStore, type UnitRow } from '../store/store'

// Summaries (seed 002's SummaryScopeType): daily and weekly per period, per person and topic
// once an entity is named often enough, and the relationship as a whole. Each scope has one
// summary unit, rewritten as a new version when its episodes change.

const Summary = z.object({ summary: z.string().min(1).max(4000) })

/** The latest episodes a summary reads. */
export const SUMMARY_EPISODES = 200
const SUMMARY_EPISODES_MAX = 1000

const SummarizePayload = z.object({
  model: z.string(),
  scope_type: z.number().int().min(1).max(5),
  scope_key: z.string(),
  range_start: z.number().int().nullable().optional(),
  range_end: z.number().int().nullable().optional(),
  entity_id: z.number().int().nullable().optional(),
  /** A branch's episodes (jobPlanner.queueBranchJobs); absent: every episode of the scope. */
  unit_ids: z.array(z.number().int()).max(SUMMARY_EPISODES_MAX).optional(),
})

/** An entity earns its own summary once this many episodes name it. */
export const ENTITY_SUMMARY_MIN_EPISODES = 3

/** Person and topic summaries for entities named often enough (coalesced: one per entity at a time). */
export function entitySummaryJobs(
  store: MemoryStore,
  model: string,
  entityIds: number[],
): Array<{ kind: string; payload: unknown; dedupeKey: string; delaySeconds: number }> {
  const scopes: Partial<Record<number, { type: ScopeType; prefix: string }>> = {
    [EntityType.PERSON]: { type: SummaryScopeType.PERSON, prefix: 'person' },
    [EntityType.TOPIC]: { type: SummaryScopeType.TOPIC, prefix: 'topic' },
  }
  const jobs = []
  for (const id of entityIds) {
    const e = store.db
      .prepare(
        `SELECT etype, (SELECT count(*) FROM unit_entities ue JOIN units u ON u.id = ue.unit_id
           WHERE ue.entity_id = e.id AND u.kind = ${UnitKind.EPISODE}) AS episodes FROM entities e WHERE id = ?`,
      )
      .get(id) as { etype: number; episodes: number } | undefined
    const scope = e && scopes[e.etype]
    if (!scope || e.episodes < ENTITY_SUMMARY_MIN_EPISODES) continue
    const key = `${scope.prefix}:${id}`
    jobs.push({
      kind: 'summarize',
      payload: { model, scope_type: scope.type, scope_key: key, entity_id: id },
      dedupeKey: `summarize:${scope.type}:${key}`,
      delaySeconds: 120,
    })
  }
  return jobs
}

/** ISO week key, e.g. `2025-W50`. */
export function isoWeek(epochSeconds: number): { key: string; start: number; end: number } {
  const d = new Date(epochSeconds * 1000)
  const day = (d.getUTCDay() + 6) % 7
  const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day)
  const thursday = new Date(monday + 3 * 86_400_000)
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1)
  const week = Math.floor((thursday.getTime() - yearStart) / 86_400_000 / 7) + 1
  return {
    key: `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`,
    start: monday / 1000,
    end: monday / 1000 + 7 * 86_400,
  }
}

export function dayScope(epochSeconds: number): { key: string; start: number; end: number } {
  const start = Math.floor(epochSeconds / 86_400) * 86_400
  return { key: isoDate(epochSeconds), start, end: start + 86_400 }
}

/** The summary jobs an episode at this time calls for (coalesced by their dedupe keys). */
export function summaryJobs(
  at: number,
  model: string,
): Array<{ kind: string; payload: unknown; dedupeKey: string; delaySeconds: number }> {
  const day = dayScope(at)
  const week = isoWeek(at)
  const periods = [
    { type: SummaryScopeType.DAILY, s: day },
    { type: SummaryScopeType.WEEKLY, s: week },
  ].map(({ type, s }) => ({
    kind: 'summarize',
    payload: { model, scope_type: type, scope_key: s.key, range_start: s.start, range_end: s.end },
    dedupeKey: `summarize:${type}:${s.key}`,
    delaySeconds: 60,
  }))
  // The relationship as a whole, from the latest exchanges: rewritten at most every ten minutes.
  const relationship = {
    kind: 'summarize',
    payload: { model, scope_type: SummaryScopeType.RELATIONSHIP, scope_key: 'relationship' },
    dedupeKey: `summarize:${SummaryScopeType.RELATIONSHIP}:relationship`,
    delaySeconds: 600,
  }
  return [...periods, relationship]
}

/**
 * A daily, weekly, person, topic or relationship summary. The same scope is rewritten as a
 * new version of its one summary unit; evidence is every episode it read.
 */
export const summarize: MemoryJobHandler = async (raw, ctx) => {
  const p = SummarizePayload.safeParse(raw)
  if (!p.success) throw new PermanentJobError(`bad payload: ${p.error.message}`)
  const { store } = ctx
  const { scope_type, scope_key, range_start, range_end, entity_id, model, unit_ids } = p.data
  const episodes = (
    unit_ids
      ? store.db
          .prepare(
            `SELECT * FROM units WHERE id IN (SELECT value FROM json_each(?)) AND kind = ${UnitKind.EPISODE}
             AND state != ${UnitState.ARCHIVED} ORDER BY occurred_at DESC, id DESC LIMIT ${SUMMARY_EPISODES}`,
          )
          .all(JSON.stringify(unit_ids))
      : entity_id != null
        ? store.db
            .prepare(
              `SELECT u.* FROM units u JOIN unit_entities ue ON ue.unit_id = u.id WHERE ue.entity_id = ?
             AND u.kind = ${UnitKind.EPISODE} AND u.state != ${UnitState.ARCHIVED} ORDER BY u.occurred_at DESC, u.id DESC LIMIT 200`,
            )
            .all(entity_id)
        : store.db
            .prepare(
              `SELECT * FROM units WHERE kind = ${UnitKind.EPISODE} AND state != ${UnitState.ARCHIVED}
             AND occurred_at >= ? AND occurred_at < ? ORDER BY occurred_at DESC, id DESC LIMIT 200`,
            )
            .all(range_start ?? 0, range_end ?? Number.MAX_SAFE_INTEGER)
  ).reverse() as UnitRow[] // the latest 200, told in the order they happened
  if (episodes.length === 0) return
  const evidence = episodes.map((e) => e.id)
  const existing = summaryToRewrite(store, scope_type, scope_key, evidence, unit_ids !== undefined)
  if (existing === null) return // nothing new
  const r = await askJson(
    ctx,
    model,
    `Summarise these memories ${scopeTopic(store, scope_type as ScopeType, scope_key, entity_id)} in a few sentences: what happened, who was involved, how the user felt, what is left open. Field: summary.`,
    episodes.map((e) => `[${isoDate(e.occurred_at ?? e.created_at)}] ${store.text(e)}`).join('\n'),
    Summary,
  )
  store.db
    .transaction(() => {
      const payload = {
        scope_type: scope_type as ScopeType,
        scope_key,
        range_start: range_start ?? null,
        range_end: range_end ?? null,
        summary_text: r.summary,
      }
      if (existing === undefined) {
        store.createUnit({
          kind: UnitKind.SUMMARY,
          source: 'summarize',
          occurred_at: episodes.at(-1)!.occurred_at,
          state: UnitState.CONSOLIDATED,
          evidence,
          payload,
        })
      } else {
        store.addEvidence(existing, evidence)
        store.editPayload(existing, payload, 'resummarised')
      }
    })
    .immediate()
}

/**
 * The summary unit of this scope to rewrite (undefined: write a new one; null: it already says
 * exactly this). A branch's summary is the one whose episodes all lie in the new list — the
 * same branch, grown; another fork's summary is left as it is, for that fork.
 */
function summaryToRewrite(
  store: MemoryStore,
  scopeType: number,
  scopeKey: string,
  evidence: number[],
  perBranch: boolean,
): number | null | undefined {
  const ids = store.db
    .prepare('SELECT unit_id FROM payload_summary WHERE scope_type = ? AND scope_key = ? ORDER BY unit_id')
    .pluck()
    .all(scopeType, scopeKey) as number[]
  const wanted = new Set(evidence)
  const same = (had: number[]) => had.length === evidence.length && had.every((id) => wanted.has(id))
  for (const id of perBranch ? ids : ids.slice(0, 1)) {
    const had = store.evidenceOf(id)
    if (same(had)) return null
    if (!perBranch || had.every((e) => wanted.has(e))) return id
  }
  return undefined
}

/** What a summary is about, in words the model can use. */
function scopeTopic(store: MemoryStore, type: ScopeType, key: string, entityId: number | null | undefined): string {
  const name = store.entityName(entityId)
  if (type === SummaryScopeType.PERSON && name) return `about the person ${name}`
  if (type === SummaryScopeType.TOPIC && name) return `about the topic ${name}`
  if (type === SummaryScopeType.RELATIONSHIP) return 'as the story of the relationship between the user and the persona'
  return `for ${key}`
}
