import type { MemoryJob } from '@shared/contract'

const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 1],
  ['minute', 60],
  ['hour', 3600],
  ['day', 86_400],
]

/** "3 minutes ago", "in 2 hours": epoch seconds against `now`, in the largest unit that fits. */
export function relativeTime(epoch: number, now: number, language: string): string {
  const diff = epoch - now
  const [unit, size] = steps.findLast(([, s]) => Math.abs(diff) >= s) ?? steps[0]!
  return new Intl.RelativeTimeFormat(language, { numeric: 'auto' }).format(Math.round(diff / size), unit)
}

/** When a queued job may run, if that is still ahead (a delayed summary, a retry backing off). */
export function waitingUntil(job: MemoryJob, now: number): number | null {
  return job.status === 'queued' && job.run_after > now ? job.run_after : null
}
