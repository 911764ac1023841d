import type { BackupResult, BackupSettings } from '@shared/contract'

const HOUR_MS = 60 * 60 * 1000
const PERIOD_MS = { daily: 24 * HOUR_MS, weekly: 7 * 24 * HOUR_MS } as const
/**
 * The timer looks again at least this often, so a computer asleep at the due time, or a clock
 * moved, still backs up soon after; and a scheduled backup that failed tries again this long
 * after its failure, not at every look.
 */
export const LOOK_AGAIN_MS = HOUR_MS

/**
 * When the schedule owes the next backup: one period after the newest complete backup in the
 * folder (the folder, not a remembered time, is the truth: a backup deleted by hand is owed
 * again), and no sooner than an hour after a scheduled one failed. Null when the schedule is off.
 */
export function nextDueAt(settings: BackupSettings, newest: Date | null, last: BackupResult | null): Date | null {
  if (settings.interval === 'off' || !settings.folder) return null
  let due = newest ? newest.getTime() + PERIOD_MS[settings.interval] : 0
  if (last && !last.ok && last.trigger === 'schedule') due = Math.max(due, Date.parse(last.finished_at) + LOOK_AGAIN_MS)
  return new Date(due)
}

/**
 * The schedule's timer in the main process: looks once at start-up (a backup due while the app
 * was closed runs now), then again when the next one is due, or within the hour. `look` runs
 * a backup when one is due and answers when the next is.
 */
export class BackupSchedule {
  private timer: NodeJS.Timeout | null = null
  private started = false
  private stopped = false
  private looking: Promise<void> | null = null

  constructor(
    private readonly look: () => Promise<Date | null>,
    private readonly now: () => number,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.started = true
    this.wake()
  }

  /** Settings changed: look again now rather than at the old time (once started). */
  wake(): void {
    if (!this.started || this.stopped || this.looking) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.looking = this.look()
      .catch((e: unknown) => {
        this.log(`[backup] the schedule could not look: ${(e as Error).message}`)
        return null
      })
      .then((next) => {
        this.looking = null
        if (this.stopped) return
        const wait = next ? Math.min(LOOK_AGAIN_MS, Math.max(1000, next.getTime() - this.now())) : LOOK_AGAIN_MS
        this.timer = setTimeout(() => this.wake(), wait)
        this.timer.unref()
      })
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.looking
  }
}
