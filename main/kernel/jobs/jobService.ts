import type { Db } from '../../db/open'
import type { EventBus } from '../events'
import type { WorkerStatus } from '@shared/contract'
import { BatchTallies, type Tally } from './batchTallies'
import { HeldJobs } from './heldJobs'
import { JobQueue } from './jobQueue'
import type { FromWorker, ToWorker, WorkerInit } from './protocol'
import { SupervisedWorker, pausedError, type RestartPolicy } from './workerSupervisor'
import type { WorkerEntry } from './workerThread'

export interface JobServiceOptions {
  db: Db
  dbPath: string
  bus: EventBus
  worker: WorkerEntry | null
  init?: Omit<WorkerInit, 'dbPath'>
  /** Called with ids of graph nodes a job changed. */
  onNodesChanged?: (ids: string[]) => void
  /** When a dead worker comes back; tests shorten the waits. */
  restarts?: Partial<RestartPolicy>
  log?: (message: string) => void
}

/** Labels shown in the status bar for each batch, set when the batch is queued. */
type Labels = Map<string, string>

/**
 * The main thread's side of the job system: enqueues jobs, starts and stops the worker (and
 * restarts it when it dies, see SupervisedWorker), and turns what the worker reports into
 * `job_progress` events for the status bar.
 */
export class JobService {
  readonly queue: JobQueue
  private readonly worker: SupervisedWorker<ToWorker, FromWorker>
  private readonly labels: Labels = new Map()
  private readonly idleWaiters = new Set<{ resolve: () => void; reject: (e: Error) => void }>()
  private readonly tallies: BatchTallies
  private readonly held = new HeldJobs()

  constructor(private readonly options: JobServiceOptions) {
    this.queue = new JobQueue(options.db, options.init?.queue)
    this.tallies = new BatchTallies((batch) => this.queue.batchProgress(batch))
    this.worker = new SupervisedWorker({
      name: 'jobs',
      launch: () => ({
        entry: options.worker!,
        data: { dbPath: options.dbPath, ...options.init, config: this.config } satisfies WorkerInit,
      }),
      onMessage: (m) => this.receive(m),
      // What the dead worker held is failed by the retry rule now, not after a 5-minute lease;
      // the next worker starts by looking for due jobs, so the queue moves on by itself.
      onDeath: (reason) => {
        for (const m of this.held.release(`the job worker died: ${reason}`, () => this.queue)) this.receive(m)
      },
      onStatus: (status) => {
        if (status.state === 'paused') this.settleIdleWaiters(pausedError(status))
      },
      bus: options.bus,
      policy: options.restarts,
      log: options.log,
    })
  }

  private config: unknown

  /** What the jobs are handed (the LLM providers they may call); the running worker gets it at once. */
  setConfig(config: unknown): void {
    this.config = config
    this.send({ type: 'config', config })
  }

  start(): void {
    if (this.options.worker) this.worker.start()
  }

  /** How the worker fares (ok, restarted after a death, paused after too many). */
  workerStatus(): WorkerStatus {
    return this.worker.status
  }

  /** The user's retry of a paused worker. */
  restartWorker(): WorkerStatus {
    return this.options.worker ? this.worker.restart() : this.worker.status
  }

  /** Queues a batch of jobs under one progress label and wakes the worker. */
  enqueueBatch(
    batch: string,
    label: string,
    jobs: Array<{ kind: string; payload: unknown; dedupeKey?: string }>,
  ): number {
    this.labels.set(batch, label)
    const ids = this.options.db
      .transaction(() => jobs.map((j) => this.queue.enqueue(j.kind, j.payload, { batch, dedupeKey: j.dedupeKey })))
      .immediate()
    this.report(batch, this.tallies.recount(batch))
    this.send({ type: 'wake' })
    return ids.length
  }

  /**
   * Resolves once no job is queued or running (for the CLI's `build` and for tests); rejects when
   * the worker is paused, as nothing would run them.
   */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    const status = this.worker.status
    if (status.state === 'paused') return Promise.reject(pausedError(status))
    return new Promise((resolve, reject) => this.idleWaiters.add({ resolve, reject }))
  }

  async stop(): Promise<void> {
    await this.worker.stop({ type: 'stop' })
  }

  /** Ends the worker at once (a hard quit or a crash): whatever it was doing is picked up again later. */
  async terminate(): Promise<void> {
    await this.worker.terminate()
  }

  private receive(message: FromWorker): void {
    this.held.note(message)
    switch (message.type) {
      case 'job_finished':
        if (message.outcome === 'dead')
          this.options.log?.(`[jobs] ${message.kind} #${message.job_id} failed for good: ${message.error}`)
        if (message.batch)
          this.report(
            message.batch,
            this.tallies.finished(message.batch, message.outcome),
            message.outcome === 'dead' ? message.error : undefined,
          )
        if (this.idleWaiters.size > 0 && this.isIdle()) this.settleIdleWaiters()
        break
      case 'nodes_changed':
        this.options.onNodesChanged?.(message.node_ids)
        break
      case 'log':
        this.options.log?.(`[jobs] ${message.message}`)
        break
      case 'started':
      case 'job_claimed':
      case 'idle':
      case 'stopped':
        break
    }
  }

  private settleIdleWaiters(error?: Error): void {
    const waiters = [...this.idleWaiters]
    this.idleWaiters.clear()
    for (const w of waiters)
      if (error) w.reject(error)
      else w.resolve()
  }

  /** Whether no job is queued or running: one index probe, not a count of every pending job. */
  private isIdle(): boolean {
    return this.options.db.prepare('SELECT NOT EXISTS (SELECT 1 FROM jobs WHERE status IN (0, 1))').pluck().get() === 1
  }

  private report(batch: string, p: Tally, error?: string): void {
    const finished = p.done + p.failed >= p.total
    this.options.bus.emit('job_progress', {
      job_id: batch,
      label: this.labels.get(batch) ?? batch,
      state: finished ? (p.failed > 0 ? 'failed' : 'done') : p.started ? 'running' : 'queued',
      done: p.done,
      total: p.total,
      ...(error || (finished && p.failed > 0) ? { error: error ?? `${p.failed} of ${p.total} failed` } : {}),
    })
  }

  private send(message: ToWorker): void {
    this.worker.send(message)
  }
}
