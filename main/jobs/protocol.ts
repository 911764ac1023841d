import type { ProviderConfig } from '../llm/providers'

/** Messages between the main thread and the job worker (one typed union each way). */

export interface WorkerInit {
  dbPath: string
  /** The providers (with keys) jobs may call; replaced by a `providers` message when they change. */
  providers?: ProviderConfig[]
  /** Retries, backoff and lease, in seconds; tests shorten them. */
  queue?: { maxTries?: number; backoffSeconds?: number; leaseSeconds?: number }
  /** How often to look for due jobs when not woken. */
  pollMs?: number
}

export type ToWorker = { type: 'wake' } | { type: 'stop' } | { type: 'providers'; providers: ProviderConfig[] }

export type FromWorker =
  | { type: 'started'; reclaimed: number }
  | {
      type: 'job_finished'
      job_id: number
      kind: string
      batch: string | null
      outcome: 'done' | 'retry' | 'dead'
      error?: string
    }
  /** Rows the job changed, so the main thread can tell open windows. */
  | { type: 'nodes_changed'; node_ids: string[] }
  | { type: 'log'; level: 'info' | 'error'; message: string }
  | { type: 'stopped' }
