const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

const formats = new Map<string, Intl.RelativeTimeFormat>()

/**
 * "5 min. ago", "yesterday", "3 週間前": how long ago `iso` was, in the UI's language, in the
 * largest unit that is at least one; under a minute is "now".
 */
export function relativeTime(iso: string, now: number, language: string): string {
  let format = formats.get(language)
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' })
    formats.set(language, format)
  }
  const seconds = (Date.parse(iso) - now) / 1000
  if (!Number.isFinite(seconds)) return ''
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit)
  }
  return format.format(0, 'second')
}
