import type { Persona } from '@shared/contract'
import { JobQueue } from '../jobs/jobQueue'
import { resolveModel } from '../llm/models'
import type { LlmRegistry } from '../llm/providers'
import type { PersonaService } from '../persona/personaService'
import type { SettingsService } from '../settings/settingsService'
import { CAPSULE_EPISODES } from './capsuleJob'
import { UnitKind } from './enums'
import { EPISODE_JOBS } from './memoryJobs'
import { hasDirty, modelVectorMeta } from './modelVectors'
import { nowSeconds, type MemoryStore } from './store'
import { summaryJobs } from './summaryJobs'

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
  pathTo: (flowId: string, nodeId: string) => Set<string>
}

/**
 * Which memory jobs an event calls for, with which model: the episode jobs and period
 * summaries of new episodes, the capsule of a branch, the embedding model's catch-up. Jobs
 * go into the persona's own database; the worker is woken for them.
 */
export class MemoryJobPlanner {
  constructor(private readonly deps: PlannerDeps) {}

  /** Queues the LLM jobs for new episodes with the persona's lightweight model; none when no provider is set up. */
  queueEpisodeJobs(personaId: string, store: MemoryStore, unitIds: number[]): number {
    if (unitIds.length === 0) return 0
    const model = this.jobModel(personaId)
    if (!model) return 0
    const queue = new JobQueue(store.db)
    let count = 0
    store.db.transaction(() => {
      const times = new Set<number>()
      for (const id of unitIds) {
        for (const kind of EPISODE_JOBS) {
          queue.enqueue(kind, { unit_id: id, model }, { dedupeKey: `${kind}:${id}` })
          count++
        }
        const at = store.unit(id)?.occurred_at
        if (at != null) times.add(Math.floor(at / 86_400) * 86_400)
      }
      for (const day of times)
        for (const j of summaryJobs(day, model)) {
          queue.enqueue(j.kind, j.payload, { dedupeKey: j.dedupeKey, delaySeconds: j.delaySeconds })
          count++
        }
    })()
    this.catchUpEmbeddings(personaId, store)
    this.deps.wake(personaId)
    return count
  }

  /** Queues the embedding model's catch-up when units changed since their vectors (or the model did). */
  catchUpEmbeddings(personaId: string, store: MemoryStore): void {
    const persona = this.deps.personas.find(personaId)
    const model = persona && this.deps.embeddingModel(persona)
    if (!model) return
    if (modelVectorMeta(store.db)?.model === model && !hasDirty(store.db)) return
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
   * A new capsule from the latest exchanges of the branch just answered. A burst of messages
   * makes one capsule: a capsule job still waiting is given the newer exchanges instead.
   */
  queueCapsule(personaId: string, store: MemoryStore, flowId: string, nodeId: string): void {
    const model = this.jobModel(personaId)
    if (!model) return
    const path = [...this.deps.pathTo(flowId, nodeId)]
    const ids = (
      store
        .prepare(
          `SELECT id FROM units WHERE kind = ${UnitKind.EPISODE} AND origin_node_id IN (SELECT value FROM json_each(?))
           ORDER BY coalesce(occurred_at, created_at) DESC, id DESC LIMIT ${CAPSULE_EPISODES}`,
        )
        .all(JSON.stringify(path)) as Array<{ id: number }>
    )
      .map((r) => r.id)
      .reverse()
    if (ids.length === 0) return
    const payload = JSON.stringify({ model, unit_ids: ids })
    const key = `capsule:${flowId}`
    const waiting = store
      .prepare('UPDATE jobs SET payload_json = ?, updated_at = ? WHERE dedupe_key = ? AND status = 0')
      .run(payload, nowSeconds(), key)
    if (waiting.changes === 0)
      new JobQueue(store.db).enqueue('capsule', { model, unit_ids: ids }, { dedupeKey: key, delaySeconds: 20 })
    this.deps.wake(personaId)
  }
}
