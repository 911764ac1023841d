import { Worker } from 'node:worker_threads'

/** A worker thread's script and how to start it. */
export interface WorkerEntry {
  /** The worker script: out/main/jobWorker.js when built, the .ts source under tests. */
  path: string | URL
  execArgv?: string[]
  env?: NodeJS.ProcessEnv
  /** Extra fields for the worker's workerData (a bootstrap's own settings). */
  data?: Record<string, unknown>
}

/** How long a worker may take to finish its current job after being asked to stop. */
const STOP_GRACE_MS = 5000

/**
 * One worker_threads worker seen from the main thread: started from an entry, messages both
 * ways, a stop that lets the current job finish (then terminates after a grace period), and
 * its errors and unexpected exits logged with a label and handed to `onDeath` (the supervisor).
 */
export class WorkerThread<ToWorker extends { type: string }, FromWorker> {
  private worker: Worker | null = null
  private stopping: Promise<void> | null = null

  constructor(
    private readonly label: string,
    private readonly onMessage: (message: FromWorker) => void,
    private readonly log?: (message: string) => void,
    /** The worker ended without being asked to (an uncaught error, any exit): why, in words. */
    private readonly onDeath?: (reason: string) => void,
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
    // An uncaught error comes as 'error', then 'exit' with code 1: the error is the better reason.
    let error: string | null = null
    worker.on('message', (m: FromWorker) => this.onMessage(m))
    worker.on('error', (e: unknown) => {
      error = e instanceof Error ? e.message : String(e)
      this.log?.(`[${this.label}] worker error: ${e instanceof Error ? (e.stack ?? e.message) : error}`)
    })
    worker.on('exit', (code) => {
      this.worker = null
      if (this.stopping) return
      // Even a clean exit is a death here: only stop() ends a worker's loop, so nothing serves the queue.
      const reason = error ?? `the worker exited with code ${code}`
      if (!error) this.log?.(`[${this.label}] ${reason}`)
      this.onDeath?.(reason)
    })
    this.worker = worker
  }

  send(message: ToWorker): void {
    this.worker?.postMessage(message)
  }

  /** Ends the worker at once, mid-job if need be (a quit): its job is reclaimed once its lease runs out. */
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
