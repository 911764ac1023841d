import { byCodeUnits } from './order'

// Timestamps are ISO 8601 strings with an offset (seed §4). Different offsets and more than
// millisecond precision (`06:48:06.533720+09:00`) both occur, so neither string order nor
// Date.parse alone orders them correctly.

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/

interface Instant {
  seconds: number
  nanos: number
}

function instant(text: string): Instant | null {
  const m = ISO.exec(text)
  if (!m) return null
  const ms = Date.parse(`${m[1]}${m[3]}`)
  if (Number.isNaN(ms)) return null
  return { seconds: ms / 1000, nanos: Number((m[2] ?? '').padEnd(9, '0')) }
}

export function isIsoTimestamp(text: string): boolean {
  return instant(text) !== null
}

/** Chronological order; text that is not a timestamp sorts by its characters after every real one. */
export function compareTimestamps(a: string, b: string): number {
  return compareParsed(a, instant(a), b, instant(b))
}

function compareParsed(a: string, x: Instant | null, b: string, y: Instant | null): number {
  if (x && y) return x.seconds - y.seconds || x.nanos - y.nanos
  if (x || y) return x ? -1 : 1
  return byCodeUnits(a, b)
}

/**
 * `items` in the order of their timestamps (compareTimestamps), then of `tie`. Each
 * timestamp is parsed once rather than at every comparison.
 */
export function sortByTimestamp<T>(items: readonly T[], time: (item: T) => string, tie: (a: T, b: T) => number): T[] {
  const keyed = items.map((item) => {
    const text = time(item)
    return { item, text, at: instant(text) }
  })
  keyed.sort((a, b) => compareParsed(a.text, a.at, b.text, b.at) || tie(a.item, b.item))
  return keyed.map((k) => k.item)
}

/** The latest of some timestamps, or null when there are none. */
export function newest(timestamps: Iterable<string | null>): string | null {
  return pick(timestamps, 1)
}

/** The earliest of some timestamps, or null when there are none. */
export function oldest(timestamps: Iterable<string | null>): string | null {
  return pick(timestamps, -1)
}

function pick(timestamps: Iterable<string | null>, direction: 1 | -1): string | null {
  let best: string | null = null
  let bestAt: Instant | null = null
  for (const t of timestamps) {
    if (t === null) continue
    const at = instant(t)
    if (best === null || compareParsed(t, at, best, bestAt) * direction > 0) {
      best = t
      bestAt = at
    }
  }
  return best
}
