import { Worker } from 'node:worker_threads'
import type { WorkerEntry } from './jobService'

/** How long a worker may take to finish its current job after being asked to stop. */
const STOP_GRACE_MS = 5000

/**
 * One worker_threads worker seen from the main thread: started from an entry, messages both
 * ways, a stop that lets the current job finish (then terminates after a grace period), and
 * its errors and unexpected exits logged with a label.
 */
export class WorkerThread<ToWorker extends { type: string }, FromWorker> {
  private worker: Worker | null = null
  private stopping: Promise<void> | null = null

  constructor(
    private readonly label: string,
    private readonly onMessage: (message: FromWorker) => void,
    private readonly log?: (message: string) => void,
  ) {}

  get running(): boolean {
    return this.worker !== null
  }

  get stopped(): boolean {
    return this.stopping !== null
  }

  start(entry: WorkerEntry, workerData: Record<string, unknown>, env?: NodeJS.ProcessEnv): void {
    if (this.worker || this.stopping) return
    const worker = new Worker(entry.path, {
      workerData: { ...entry.data, ...workerData },
      execArgv: entry.execArgv,
      env: env ?? entry.env,
    })
    worker.on('message', (m: FromWorker) => this.onMessage(m))
    worker.on('error', (e) => this.log?.(`[${this.label}] worker error: ${e.stack ?? e.message}`))
    worker.on('exit', (code) => {
      if (code !== 0 && !this.stopping) this.log?.(`[${this.label}] worker exited with code ${code}`)
      this.worker = null
    })
    this.worker = worker
  }

  send(message: ToWorker): void {
    this.worker?.postMessage(message)
  }

  /** Ends the worker at once, mid-job if need be: its job is reclaimed once its lease runs out. */
  async terminate(): Promise<void> {
    const w = this.worker
    this.stopping ??= Promise.resolve()
    if (w) await w.terminate()
  }

  /** Sends `stopMessage`, waits for the worker to exit (or terminates it after the grace period). */
  async stop(stopMessage: ToWorker): Promise<void> {
    const w = this.worker
    if (!w) return
    this.stopping ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => void w.terminate(), STOP_GRACE_MS)
      w.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      w.postMessage(stopMessage)
    })
    await this.stopping
  }
}
