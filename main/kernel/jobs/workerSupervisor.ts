import type { WorkerName, WorkerStatus } from '@shared/contract'
import type { EventBus } from '../events'
import { WorkerThread, type WorkerEntry } from './workerThread'

/** What a wait for jobs gets when the worker that would run them is paused. */
export function pausedError(status: WorkerStatus): Error {
  return new Error(`background work is paused: ${status.reason}`)
}

/** When a dead worker is started again, and when it is not. */
export interface RestartPolicy {
  /** The wait before the first restart; it doubles with each death in the window, up to `maxDelayMs`. */
  firstDelayMs: number
  maxDelayMs: number
  /** This many deaths within `windowMs` pause the worker instead: it is not restarted until asked. */
  maxDeaths: number
  windowMs: number
}

/**
 * 0.5 s, 1 s, 2 s, 4 s, then the fifth death within two minutes pauses: a passing fault (too many
 * open files under a flood of connections) gets over it, one that kills every worker at once
 * does not spin the machine.
 */
export const defaultRestartPolicy: RestartPolicy = {
  firstDelayMs: 500,
  maxDelayMs: 30_000,
  maxDeaths: 5,
  windowMs: 120_000,
}

export interface SupervisedWorkerOptions<FromWorker> {
  name: WorkerName
  /** What a worker runs and is given, read at every start: a restarted one gets today's config. */
  launch(): { entry: WorkerEntry; data: Record<string, unknown>; env?: NodeJS.ProcessEnv }
  onMessage(message: FromWorker): void
  /** The worker died unasked: put back the jobs it held, before a new one claims any. */
  onDeath(reason: string): void
  /** A new worker replaced a dead or paused one: tell it what the old one had been told. */
  onRelaunch?(): void
  /** Every change of status (also emitted as `worker_status` on the bus). */
  onStatus?(status: WorkerStatus): void
  bus?: EventBus
  policy?: Partial<RestartPolicy>
  log?: (message: string) => void
}

/**
 * A worker thread that comes back: an unexpected death (an uncaught error, any exit it was not
 * asked for) restarts it after an exponential back-off, and too many deaths in a short while
 * pause it with the last reason until `restart()` (the user's "retry"). A stop or terminate
 * asked for is final. Each change is announced as `worker_status`, for the status bar.
 */
export class SupervisedWorker<ToWorker extends { type: string }, FromWorker> {
  private readonly thread: WorkerThread<ToWorker, FromWorker>
  private readonly policy: RestartPolicy
  /** When the worker died, within the policy's window. */
  private deaths: number[] = []
  private restartTimer: NodeJS.Timeout | null = null
  private quietTimer: NodeJS.Timeout | null = null
  private ended = false
  private current: WorkerStatus

  constructor(private readonly o: SupervisedWorkerOptions<FromWorker>) {
    this.policy = { ...defaultRestartPolicy, ...o.policy }
    this.current = { worker: o.name, state: 'ok', reason: null, restarts: 0 }
    this.thread = new WorkerThread(
      o.name,
      (m) => o.onMessage(m),
      o.log,
      (reason) => this.died(reason),
    )
  }

  get running(): boolean {
    return this.thread.running
  }

  /** Stopped or terminated on purpose: it never starts again. */
  get stopped(): boolean {
    return this.ended
  }

  /** Dead, and a new worker is on its way after the back-off. */
  get restarting(): boolean {
    return this.restartTimer !== null
  }

  get status(): WorkerStatus {
    return this.current
  }

  /**
   * Starts the worker unless it runs already or a restart is on its way; false when it may not
   * run (stopped, or paused after too many deaths).
   */
  start(): boolean {
    if (this.ended || this.current.state === 'paused') return false
    if (!this.thread.running && !this.restartTimer) this.launch()
    // A start that threw counts as a death, and may have paused it.
    return this.status.state !== 'paused'
  }

  send(message: ToWorker): void {
    this.thread.send(message)
  }

  /** The user's retry: a paused worker, or one waiting out its back-off, starts now with its deaths forgotten. */
  restart(): WorkerStatus {
    if (this.ended) return this.current
    const waiting = this.current.state === 'paused' || this.restartTimer !== null
    this.clearTimers()
    this.deaths = []
    if (this.current.state !== 'ok') this.report({ state: 'ok', reason: null })
    if (waiting && !this.thread.running && this.launch()) this.o.onRelaunch?.()
    return this.current
  }

  async stop(stopMessage: ToWorker): Promise<void> {
    this.end()
    await this.thread.stop(stopMessage)
  }

  /** Ends the worker at once (a hard quit); nothing restarts it. */
  async terminate(): Promise<void> {
    this.end()
    await this.thread.terminate()
  }

  private end(): void {
    this.ended = true
    this.clearTimers()
  }

  /** Starts a thread; a start that throws (a missing entry, no memory for a thread) counts as a death. */
  private launch(): boolean {
    try {
      const { entry, data, env } = this.o.launch()
      this.thread.start(entry, data, env)
      return true
    } catch (e) {
      this.died(e instanceof Error ? e.message : String(e))
      return false
    }
  }

  private died(reason: string): void {
    if (this.ended) return
    const now = Date.now()
    this.deaths = [...this.deaths.filter((t) => now - t < this.policy.windowMs), now]
    this.o.onDeath(reason)
    this.clearTimers()
    if (this.deaths.length >= this.policy.maxDeaths) {
      this.o.log?.(`[${this.o.name}] paused after ${this.deaths.length} deaths in a row: ${reason}`)
      this.report({ state: 'paused', reason })
      return
    }
    const delay = Math.min(this.policy.firstDelayMs * 2 ** (this.deaths.length - 1), this.policy.maxDelayMs)
    this.o.log?.(`[${this.o.name}] restarting the worker in ${delay} ms: ${reason}`)
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      if (!this.launch()) return
      this.o.onRelaunch?.()
      this.report({ state: 'restarted', reason, restarts: this.current.restarts + 1 })
      // A quiet spell with no death: the notice goes, and the deaths so far no longer count.
      this.quietTimer = setTimeout(() => {
        this.quietTimer = null
        this.deaths = []
        this.report({ state: 'ok', reason: null })
      }, this.policy.windowMs)
      this.quietTimer.unref()
    }, delay)
  }

  private clearTimers(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer)
    if (this.quietTimer) clearTimeout(this.quietTimer)
    this.restartTimer = this.quietTimer = null
  }

  private report(change: Partial<WorkerStatus>): void {
    this.current = { ...this.current, ...change }
    this.o.onStatus?.(this.current)
    this.o.bus?.emit('worker_status', this.current)
  }
}
