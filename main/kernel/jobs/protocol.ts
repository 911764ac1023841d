/**
 * Messages between the main thread and the job worker (one typed union each way). `Config` is
 * what the composition root hands its jobs and replaces when it changes (the LLM providers,
 * with their keys): the runtime carries it without knowing what it is.
 */

export interface WorkerInit<Config = unknown> {
  dbPath: string
  /** Replaced by a `config` message when it changes. */
  config?: Config
  /** Retries, backoff and lease, in seconds; tests shorten them. */
  queue?: { maxTries?: number; backoffSeconds?: number; leaseSeconds?: number }
  /** How often to look for due jobs when not woken. */
  pollMs?: number
}

export type ToWorker<Config = unknown> = { type: 'wake' } | { type: 'stop' } | { type: 'config'; config: Config }

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
