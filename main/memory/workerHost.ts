import type { WorkerEntry } from '../kernel/jobs/jobService'
import { WorkerThread } from '../kernel/jobs/workerThread'
import type { ProviderConfig } from '../llm/providers'
import type { FromWorker, ToWorker, WorkerInit } from '../kernel/jobs/protocol'
import { embedSentences } from './sentenceModel'

export interface WorkerHostOptions {
  entry: WorkerEntry | null
  providers: () => ProviderConfig[]
  /** Whether a database still has due or running jobs (checked on the main thread's connection). */
  busy: (dbPath: string) => boolean
  init?: Omit<WorkerInit, 'config' | 'dbPath'>
  onFinished?: (dbPath: string, message: Extract<FromWorker, { type: 'job_finished' }>) => void
  log?: (message: string) => void
}

/** Starts the memory worker on first use and wakes it for the databases that have work. */
export class MemoryWorkerHost {
  private readonly worker: WorkerThread<ToWorker<ProviderConfig[]>, FromWorker>
  private readonly waiters = new Map<string, Set<() => void>>()
  private readonly asked = new Map<number, { resolve: (output: unknown) => void; reject: (e: Error) => void }>()
  private lastAsk = 0

  constructor(private readonly options: WorkerHostOptions) {
    this.worker = new WorkerThread('memory', (m) => this.receive(m), options.log)
  }

  get available(): boolean {
    return this.options.entry !== null
  }

  wake(dbPath: string): void {
    if (!this.start()) return
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

  /** Starts the worker unless it runs already; false when it cannot (no entry, or stopped). */
  private start(): boolean {
    if (!this.options.entry || this.worker.stopped) return false
    if (!this.worker.running) {
      const init: WorkerInit<ProviderConfig[]> = { ...this.options.init, config: this.options.providers() }
      this.worker.start(this.options.entry, { ...init })
    }
    return true
  }

  /** Resolves once the database has no due or running job (tests, the import command). */
  whenIdle(dbPath: string): Promise<void> {
    if (!this.options.busy(dbPath) || !this.worker.running) return Promise.resolve()
    return new Promise((resolve) => {
      const set = this.waiters.get(dbPath) ?? new Set()
      set.add(resolve)
      this.waiters.set(dbPath, set)
    })
  }

  async stop(): Promise<void> {
    await this.worker.stop({ type: 'stop' })
    for (const asked of this.asked.values()) asked.reject(new Error('the memory worker has stopped'))
    for (const set of this.waiters.values()) for (const w of set) w()
    this.waiters.clear()
  }

  private receive(m: FromWorker): void {
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
        for (const w of set) w()
      }
    }
  }

  private send(m: ToWorker<ProviderConfig[]>): void {
    this.worker.send(m)
  }
}
