import type { WorkerStatus } from '@shared/contract'
import type { EventBus } from '../../kernel/events'
import { HeldJobs } from '../../kernel/jobs/heldJobs'
import type { JobQueue } from '../../kernel/jobs/jobQueue'
import type { WorkerEntry } from '../../kernel/jobs/workerThread'
import { SupervisedWorker, pausedError, type RestartPolicy } from '../../kernel/jobs/workerSupervisor'
import type { ProviderConfig } from '../../llm/providers'
import type { FromWorker, ToWorker, WorkerInit } from '../../kernel/jobs/protocol'
import { embedSentences } from '../retrieval/sentenceModel'

export interface WorkerHostOptions {
  entry: WorkerEntry | null
  providers: () => ProviderConfig[]
  /** Whether a database still has due or running jobs (checked on the main thread's connection). */
  busy: (dbPath: string) => boolean
  init?: Omit<WorkerInit, 'config' | 'dbPath'>
  /** A database's queue on the main thread's connection: where a dead worker's jobs are put back. */
  queue: (dbPath: string) => JobQueue | null
  /** Where `worker_status` goes; when a dead worker comes back (tests shorten the waits). */
  bus?: EventBus
  restarts?: Partial<RestartPolicy>
  onFinished?: (dbPath: string, message: Extract<FromWorker, { type: 'job_finished' }>) => void
  log?: (message: string) => void
}

type Waiter = { resolve: () => void; reject: (e: Error) => void }

/**
 * Starts the memory worker on first use and wakes it for the databases that have work; when it
 * dies, its supervisor starts another (see SupervisedWorker), which is woken for them all again.
 */
export class MemoryWorkerHost {
  private readonly worker: SupervisedWorker<ToWorker<ProviderConfig[]>, FromWorker>
  private readonly waiters = new Map<string, Set<Waiter>>()
  private readonly asked = new Map<number, { resolve: (output: unknown) => void; reject: (e: Error) => void }>()
  private lastAsk = 0
  private readonly held = new HeldJobs()
  /** Every database the worker was woken for: a new worker opens only what it is woken for. */
  private readonly woken = new Set<string>()

  constructor(private readonly options: WorkerHostOptions) {
    this.worker = new SupervisedWorker({
      name: 'memory',
      launch: () => ({
        entry: options.entry!,
        data: { ...options.init, config: options.providers() } satisfies WorkerInit<ProviderConfig[]>,
      }),
      onMessage: (m) => this.receive(m),
      onDeath: (reason) => this.died(reason),
      onRelaunch: () => {
        for (const dbPath of this.woken) this.wake(dbPath)
      },
      onStatus: (status) => {
        if (status.state !== 'paused') return
        const paused = pausedError(status)
        for (const set of this.waiters.values()) for (const w of set) w.reject(paused)
        this.waiters.clear()
      },
      bus: options.bus,
      policy: options.restarts,
      log: options.log,
    })
  }

  /** How the worker fares (ok, restarted after a death, paused after too many). */
  workerStatus(): WorkerStatus {
    return this.worker.status
  }

  /** The user's retry of a paused worker. */
  restartWorker(): WorkerStatus {
    return this.worker.restart()
  }

  get available(): boolean {
    return this.options.entry !== null
  }

  wake(dbPath: string): void {
    if (!this.start()) return
    this.woken.add(dbPath)
    // The providers ride along with every wake, so keys changed in Settings reach the jobs.
    this.send({ type: 'config', config: this.options.providers() })
    this.send({ type: 'wake', dbPath })
  }

  /**
   * Vectors of the built-in sentence model for a few texts (a query), computed in the worker:
   * the model is synchronous WebAssembly, ~13 ms a query, which the main thread must not spend.
   * Without a worker (tests, the CLI) they are computed here. Rejects after `timeoutMs`.
   */
  embedSentences(texts: string[], timeoutMs: number): Promise<number[][]> {
    if (!this.options.entry) return embedSentences(texts)
    if (!this.start()) return Promise.reject(new Error('the memory worker has stopped'))
    if (!this.worker.running) return Promise.reject(new Error('the memory worker is restarting'))
    const id = ++this.lastAsk
    return new Promise<number[][]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.asked.delete(id)
        reject(new Error(`the sentence model did not answer within ${timeoutMs} ms`))
      }, timeoutMs)
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer)
          this.asked.delete(id)
          fn(value)
        }
      this.asked.set(id, { resolve: settle((v) => resolve(v as number[][])), reject: settle(reject) })
      this.send({ type: 'ask', id, question: 'embed_sentences', input: texts })
    })
  }

  /** Has the sentence model load now, where its queries run, ahead of the first one. */
  async warmSentences(): Promise<void> {
    await this.embedSentences(['-'], 60_000)
  }

  /** Starts the worker unless it runs already; false when it cannot (no entry, stopped, or paused). */
  private start(): boolean {
    return this.options.entry !== null && this.worker.start()
  }

  /** Resolves once the database has no due or running job (tests, the import command); rejects when paused. */
  whenIdle(dbPath: string): Promise<void> {
    if (!this.options.busy(dbPath)) return Promise.resolve()
    const status = this.worker.status
    if (status.state === 'paused') return Promise.reject(pausedError(status))
    // Nothing will run them (no worker, or not started yet): waiting would never end.
    if (!this.worker.running && !this.worker.restarting) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const set = this.waiters.get(dbPath) ?? new Set()
      set.add({ resolve, reject })
      this.waiters.set(dbPath, set)
    })
  }

  async stop(): Promise<void> {
    await this.worker.stop({ type: 'stop' })
    for (const asked of this.asked.values()) asked.reject(new Error('the memory worker has stopped'))
    for (const set of this.waiters.values()) for (const w of set) w.resolve()
    this.waiters.clear()
  }

  /** The worker died: its questions go unanswered, and the jobs it held go back in their queues now. */
  private died(reason: string): void {
    const dead = new Error(`the memory worker died: ${reason}`)
    for (const asked of this.asked.values()) asked.reject(dead)
    for (const m of this.held.release(dead.message, this.options.queue)) this.receive(m)
  }

  private receive(m: FromWorker): void {
    this.held.note(m)
    if (m.type === 'answer') {
      const asked = this.asked.get(m.id)
      if (m.error !== undefined) asked?.reject(new Error(m.error))
      else asked?.resolve(m.output)
      return
    }
    if (m.type === 'log') this.options.log?.(`[memory] ${m.message}`)
    if (m.type === 'job_finished') {
      if (m.outcome === 'dead') this.options.log?.(`[memory] ${m.kind} #${m.job_id} failed for good: ${m.error}`)
      this.options.onFinished?.(m.dbPath, m)
    }
    if (m.type === 'job_finished' || m.type === 'idle') {
      const set = this.waiters.get(m.dbPath)
      if (set && !this.options.busy(m.dbPath)) {
        this.waiters.delete(m.dbPath)
        for (const w of set) w.resolve()
      }
    }
  }

  private send(m: ToWorker<ProviderConfig[]>): void {
    this.worker.send(m)
  }
}
