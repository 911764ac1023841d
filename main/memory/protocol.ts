import type { ProviderConfig } from '../llm/providers'

/** Messages between the main thread and the memory worker (one typed union each way). */

export interface MemoryWorkerInit {
  providers: ProviderConfig[]
  queue?: { maxTries?: number; backoffSeconds?: number; leaseSeconds?: number }
  pollMs?: number
}

export type ToMemoryWorker =
  /** Work to do in this database; providers ride along so keys changed in Settings reach jobs. */
  { type: 'wake'; dbPath: string; providers: ProviderConfig[] } | { type: 'stop' }

export type FromMemoryWorker =
  | {
      type: 'job_finished'
      dbPath: string
      job_id: number
      kind: string
      outcome: 'done' | 'retry' | 'dead' | 'paused'
      error?: string
    }
  /** No job of this database is queued and due, or running. */
  | { type: 'idle'; dbPath: string }
  | { type: 'log'; message: string }
  | { type: 'stopped' }
