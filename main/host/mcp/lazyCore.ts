import { startCore, type Core } from '../../core'

/** How the memory server reaches a core: `loomverse mcp` opens one lazily, `serve` has its own open. */
export interface CoreAccess {
  use<T>(work: (core: Core) => Promise<T> | T): Promise<T>
  /** Keeps the core open until `done` settles (a notification's reply). */
  holdUntil(done: Promise<unknown>): void
}

/** A core that is open anyway (the one `serve` runs on): nothing to open, hold or close. */
export function openCore(core: Core): CoreAccess {
  return { use: async (work) => work(core), holdUntil: () => {} }
}

/** How long the core stays open after the last call (and the last notification's reply). */
export const IDLE_CLOSE_MS = 30_000

/**
 * The core `loomverse mcp` reads through, opened on the first call and closed once idle.
 *
 * Why not one core for the life of the process: an MCP client (Claude Desktop, Cursor) keeps
 * its servers running for days. A core open all that time would count as a live process on
 * the home, and the desktop app started meanwhile would never run its start-up recovery nor
 * resume notifications left by a crash (it does so only when alone). Why not hand the calls
 * to the running app instead: the desktop app publishes no address for other programs, and
 * the calls are reads that SQLite's WAL lets any number of processes make beside the app's
 * writes (as every other CLI command does). So the core lives only while it is used: opened by
 * a call, held while a notification it received is being answered, closed after a quiet spell.
 * A notification whose reply is cut by a close stays stored and is answered by the next start.
 */
export class LazyCore implements CoreAccess {
  private core: Core | null = null
  private timer: NodeJS.Timeout | null = null
  private busy = 0
  private closing: Promise<void> | null = null

  constructor(
    private readonly open: () => Core,
    private readonly idleMs = IDLE_CLOSE_MS,
  ) {}

  /** Runs `work` with the core open; the idle clock starts again when it ends. */
  async use<T>(work: (core: Core) => Promise<T> | T): Promise<T> {
    if (this.closing) await this.closing
    this.busy++
    this.stopTimer()
    try {
      this.core ??= this.open()
      return await work(this.core)
    } finally {
      this.release()
    }
  }

  /** Keeps the core open until `done` settles (a notification's reply), then lets it idle. */
  holdUntil(done: Promise<unknown>): void {
    this.busy++
    this.stopTimer()
    void done.finally(() => this.release())
  }

  get isOpen(): boolean {
    return this.core !== null
  }

  async dispose(): Promise<void> {
    this.stopTimer()
    await this.close()
  }

  private release(): void {
    this.busy--
    if (this.busy > 0 || !this.core) return
    this.timer = setTimeout(() => void this.close(), this.idleMs)
    this.timer.unref()
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private close(): Promise<void> {
    const core = this.core
    if (!core) return this.closing ?? Promise.resolve()
    this.core = null
    this.closing = core.dispose().finally(() => (this.closing = null))
    return this.closing
  }
}

export function openCoreFor(home: string, log: (line: string) => void): () => Core {
  return () => startCore({ home, mode: 'browser', log })
}
