import type { QueueOptions } from './jobQueue'

/**
 * The one protocol between the main thread and a job worker thread (one typed union each way),
 * for the main database's worker and the memory worker alike. `Config` is what the composition
 * root hands its jobs and replaces when it changes (the LLM providers, with their keys): the
 * runtime carries it without knowing what it is.
 */

/** Retries, backoff and lease, in seconds, as a worker is told them (tests shorten them). */
export type QueueSettings = Omit<QueueOptions, 'now'>

export interface WorkerInit<Config = unknown> {
  /** A database served from the start (the main one); others are added by `wake` messages. */
  dbPath?: string
  /** Replaced by a `config` message when it changes. */
  config?: Config
  queue?: QueueSettings
  /** How often to look for due jobs when not woken. */
  pollMs?: number
}

export type ToWorker<Config = unknown> =
  /** There may be work; with `dbPath`, in that database (opened on first mention). */
  | { type: 'wake'; dbPath?: string }
  | { type: 'stop' }
  | { type: 'config'; config: Config }
  /**
   * A question the worker answers between jobs' steps (`answer` with the same id), for work
   * that must not run on the main thread but is not a queued job: the memory worker embeds a
   * query with the built-in sentence model.
   */
  | { type: 'ask'; id: number; question: string; input: unknown }

export type FromWorker =
  | { type: 'started' }
  /**
   * A job was claimed, before it runs: the main thread knows what the worker holds, so when the
   * worker dies those jobs go back at once instead of waiting out their lease.
   */
  | { type: 'job_claimed'; dbPath: string; job_id: number }
  | {
      type: 'job_finished'
      dbPath: string
      job_id: number
      kind: string
      batch: string | null
      outcome: 'done' | 'retry' | 'dead' | 'paused'
      error?: string
    }
  /** No job of this database is queued and due, or running. */
  | { type: 'idle'; dbPath: string }
  /** Rows a job changed, so the main thread can tell open windows. */
  | { type: 'nodes_changed'; node_ids: string[] }
  | { type: 'log'; level: 'info' | 'error'; message: string }
  | { type: 'answer'; id: number; output?: unknown; error?: string }
  | { type: 'stopped' }
