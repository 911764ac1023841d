import type { Persona } from '@shared/contract'
import { JobQueue } from '../../kernel/jobs/jobQueue'
import { resolveModel } from '../../llm/models'
import type { LlmRegistry } from '../../llm/providers'
import type { PersonaService } from '../../persona/personaService'
import type { SettingsService } from '../../settings/settingsService'
import { CAPSULE_EPISODES } from './capsuleJob'
import { UnitKind, UnitState } from '../store/enums'
import { EPISODE_JOBS } from './memoryJobs'
import { hasDirty, modelVectorMeta } from '../store/modelVectors'
import { nowSeconds, type MemoryStore } from '../store/store'
import { ENTITY_SUMMARY_MIN_EPISODES, SUMMARY_EPISODES, entitySummaryJobs, summaryJobs } from './summaryJobs'
import type { PathMembers } from '../../graph/graphService'

export interface PlannerDeps {
  personas: PersonaService
  llm: LlmRegistry
  settings: SettingsService
  env: NodeJS.ProcessEnv
  /** The persona's embedding model as `provider:model`, or null. */
  embeddingModel: (persona: Persona) => string | null
  /** Tells the memory worker the persona's database has work. */
  wake: (personaId: string) => void
  /** The active path (root → node) of a flow. */
  pathTo: (flowId: string, nodeId: string) => PathMembers
}

/**
 * Which memory jobs an event calls for, with which model: the episode jobs and period
 * summaries of new episodes, the capsule of a branch, the embedding model's catch-up. Jobs
 * go into the persona's own database; the worker is woken for them.
 */
export class MemoryJobPlanner {
  constructor(private readonly deps: PlannerDeps) {}

  /** Queues the LLM jobs for new episodes with the persona's lightweight model; none when no provider is set up. */
  /**
   * `periodSummaries`: imported episodes (on no branch) get the day's and week's summaries of
   * everything; a chat exchange gets its branch's own instead (queueBranchJobs).
   */
  queueEpisodeJobs(personaId: string, store: MemoryStore, unitIds: number[], periodSummaries = true): number {
    if (unitIds.length === 0) return 0
    const model = this.jobModel(personaId)
    if (!model) return 0
    const queue = new JobQueue(store.db)
    let count = 0
    store.db
      .transaction(() => {
        const times = new Set<number>()
        for (const id of unitIds) {
          for (const kind of EPISODE_JOBS) {
            queue.enqueue(kind, { unit_id: id, model }, { dedupeKey: `${kind}:${id}` })
            count++
          }
          const at = store.unit(id)?.occurred_at
          if (at != null) times.add(Math.floor(at / 86_400) * 86_400)
        }
        if (periodSummaries)
          for (const day of times)
            for (const j of summaryJobs(day, model)) {
              queue.enqueue(j.kind, j.payload, { dedupeKey: j.dedupeKey, delaySeconds: j.delaySeconds })
              count++
            }
      })
      .immediate()
    this.catchUpEmbeddings(personaId, store)
    this.deps.wake(personaId)
    return count
  }

  /** Queues the embedding model's catch-up when units changed since their vectors (or the model did). */
  catchUpEmbeddings(personaId: string, store: MemoryStore): void {
    const persona = this.deps.personas.find(personaId)
    const model = persona && this.deps.embeddingModel(persona)
    if (!model) return
    // No vectors and nothing to embed: every unit starts dirty, so the memory is empty, or the
    // model found nothing to read in any of it (the word model on a Japanese memory).
    const meta = modelVectorMeta(store.db)
    if ((!meta || meta.model === model) && !hasDirty(store.db)) return
    // A catch-up that failed for good within the hour is not queued again on every exchange:
    // the failed job waits in the Jobs view for the user's retry (a fixed key, a model back up).
    const failedLately = store
      .prepare(`SELECT 1 FROM jobs WHERE status = 3 AND kind = 'embed' AND updated_at > ? LIMIT 1`)
      .get(nowSeconds() - 3600)
    if (failedLately) return
    new JobQueue(store.db).enqueue('embed', { model }, { dedupeKey: 'embed-model' })
    this.deps.wake(personaId)
  }

  /** The persona's lightweight model for memory jobs, or null when its provider is not set up. */
  jobModel(personaId: string): string | null {
    const persona = this.deps.personas.get(personaId)
    try {
      const ref = resolveModel(
        'lightweight',
        persona.lightweight_model,
        this.deps.env,
        this.deps.settings.get().summary.model,
      )
      return this.deps.llm.configured().includes(ref.provider) ? `${ref.provider}:${ref.model}` : null
    } catch {
      return null
    }
  }

  /**
   * The jobs over the branch just answered: its capsule (the latest exchanges) and its own
   * day, week and relationship summaries. Each rests only on the branch's episodes (and
   * imported ones, which every branch shares), so another branch never sees it, and a retry
   * that forks the conversation does not leave a summary of both forks that neither may use.
   */
  queueBranchJobs(personaId: string, store: MemoryStore, flowId: string, nodeId: string, at: number): void {
    const model = this.jobModel(personaId)
    if (!model) return
    const path = this.deps.pathTo(flowId, nodeId)
    const summaries = summaryJobs(at, model)
    // Every job's episodes from one read of the branch, newest first (idx_units_time): the
    // capsule's latest few, the relationship's latest 200, and the latest 200 of each period.
    // The path is checked here, not handed to SQL as a list, which cost a 5,000-turn flow
    // ~12 ms a reply. One read instead of one per job: 1.74 → 0.75 ms an exchange at 1,500
    // episodes on two forks (the reads per job were a sixth of the main thread's garbage).
    type List = { limit: number; range: { start: number; end: number } | null; ids: number[] }
    const capsule: List = { limit: CAPSULE_EPISODES, range: null, ids: [] }
    const periods = summaries.map((job): List => {
      const p = job.payload as { range_start?: number; range_end?: number }
      const range = p.range_start === undefined ? null : { start: p.range_start, end: p.range_end! }
      return { limit: SUMMARY_EPISODES, range, ids: [] }
    })
    const lists = [capsule, ...periods]
    const rows = store
      .prepare(
        `SELECT id, origin_node_id, occurred_at, coalesce(occurred_at, created_at) FROM units
         WHERE kind = ${UnitKind.EPISODE} AND state != ${UnitState.ARCHIVED}
         ORDER BY coalesce(occurred_at, created_at) DESC, id DESC`,
      )
      .raw(true)
      .iterate() as IterableIterator<[number, string | null, number | null, number]>
    for (const [id, origin, occurredAt, time] of rows) {
      let open = false
      for (const list of lists) {
        if (list.ids.length >= list.limit || (list.range && time < list.range.start)) continue
        open = true
        // An imported episode (no node) lies on every branch.
        if (origin !== null && !path.has(origin)) continue
        if (list.range && (occurredAt === null || occurredAt < list.range.start || occurredAt >= list.range.end))
          continue
        list.ids.push(id)
      }
      if (!open) break
    }
    for (const list of lists) list.ids.reverse() // oldest first
    store.db
      .transaction(() => {
        if (capsule.ids.length > 0)
          this.queueForBranch(store, 'capsule', `capsule:${flowId}`, nodeId, { model, unit_ids: capsule.ids }, 20, path)
        summaries.forEach((job, i) => {
          const ids = periods[i]!.ids
          if (ids.length === 0) return
          const p = job.payload as Record<string, unknown>
          this.queueForBranch(
            store,
            job.kind,
            `${job.dedupeKey}:${flowId}`,
            nodeId,
            { ...p, unit_ids: ids },
            job.delaySeconds,
            path,
          )
        })
      })
      .immediate()
    this.deps.wake(personaId)
  }

  /**
   * Person and topic summaries for the entities a chat episode names, over the episodes of its
   * branch that name them (once there are enough): called when its entities have been found.
   */
  queueEntitySummaries(personaId: string, store: MemoryStore, episodeId: number): void {
    const ep = store.unit(episodeId)
    const model = this.jobModel(personaId)
    if (!ep?.origin_node_id || !ep.origin_flow_id || !model) return
    const nodeId = ep.origin_node_id
    const path = this.deps.pathTo(ep.origin_flow_id, nodeId)
    const entities = store
      .prepare('SELECT entity_id FROM unit_entities WHERE unit_id = ?')
      .pluck()
      .all(episodeId) as number[]
    const naming = store
      .prepare(
        `SELECT u.id, u.origin_node_id FROM unit_entities ue JOIN units u ON u.id = ue.unit_id WHERE ue.entity_id = ?
         AND u.kind = ${UnitKind.EPISODE} AND u.state != ${UnitState.ARCHIVED} ORDER BY u.occurred_at DESC, u.id DESC`,
      )
      .raw(true)
    const onBranch = (entityId: number) =>
      newestOnBranch(naming.iterate(entityId) as IterableIterator<[number, string | null]>, path, SUMMARY_EPISODES)
    store.db
      .transaction(() => {
        for (const job of entitySummaryJobs(store, model, entities)) {
          const payload = job.payload as { entity_id: number } & Record<string, unknown>
          const ids = onBranch(payload.entity_id)
          if (ids.length < ENTITY_SUMMARY_MIN_EPISODES) continue
          const key = `${job.dedupeKey}:${ep.origin_flow_id}`
          this.queueForBranch(store, job.kind, key, nodeId, { ...payload, unit_ids: ids }, job.delaySeconds, path)
        }
      })
      .immediate()
    this.deps.wake(personaId)
  }

  /**
   * Queues a job over a branch's episodes, coalescing with a waiting one of the same branch:
   * a waiting job whose episodes all lie on this branch (`path`, the node's active path) is
   * given the newer list; a waiting job of another fork is left alone, and this one
   * queued beside it.
   */
  private queueForBranch(
    store: MemoryStore,
    kind: string,
    keyPrefix: string,
    nodeId: string,
    payload: { unit_ids: number[] } & Record<string, unknown>,
    delaySeconds: number,
    path: PathMembers,
  ): void {
    // Episodes of another fork (imported ones lie on every branch). Not "all in the new list":
    // a capsule reads the latest few, so the window slides and an older job's first episode
    // drops out of it, yet that job is of this branch all the same.
    const origins = store
      .prepare(
        'SELECT origin_node_id FROM units WHERE id IN (SELECT value FROM json_each(?)) AND origin_node_id IS NOT NULL',
      )
      .pluck()
    const waiting = store
      .prepare(`SELECT id, payload_json FROM jobs WHERE status = 0 AND kind = ? AND substr(dedupe_key, 1, ?) = ?`)
      .all(kind, keyPrefix.length, keyPrefix) as Array<{ id: number; payload_json: string }>
    const listed = new Set(payload.unit_ids)
    for (const w of waiting) {
      // The new list lies on this branch: only the episodes that left it are looked up.
      const earlier = ((JSON.parse(w.payload_json) as { unit_ids?: number[] }).unit_ids ?? []).filter(
        (id) => !listed.has(id),
      )
      const offBranch =
        earlier.length > 0 && (origins.all(JSON.stringify(earlier)) as string[]).some((origin) => !path.has(origin))
      if (offBranch) continue
      store
        .prepare('UPDATE jobs SET payload_json = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify(payload), nowSeconds(), w.id)
      return
    }
    new JobQueue(store.db).enqueue(kind, payload, { dedupeKey: `${keyPrefix}:${nodeId}`, delaySeconds })
  }
}

/**
 * The first `limit` episodes of `rows` (id and origin node, newest first) that lie on the branch
 * (`path`; an imported episode, with no node, lies on every branch), oldest first. Stops reading
 * once it has them.
 */
function newestOnBranch(rows: IterableIterator<[number, string | null]>, path: PathMembers, limit: number): number[] {
  const ids: number[] = []
  for (const [id, origin] of rows) {
    if (origin !== null && !path.has(origin)) continue
    ids.push(id)
    if (ids.length >= limit) break
  }
  return ids.reverse()
}
