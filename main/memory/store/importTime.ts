// The time of an imported message, as chat logs write it. No date library is installed, so
// the forms below are read here, all behind readTime so that one can replace it. A time
// without an offset is taken as UTC, as memory keeps every day and week in UTC.

/** Month names as people write them, January first. */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** Epoch values from here on are milliseconds: seconds reach it only in the year 33658. */
const EPOCH_MS_FROM = 1e12

/** What readTime reads, for messages. */
export const TIME_FORMS =
  'ISO 8601, epoch seconds or milliseconds, or a form like "1:10 pm on 27 March, 2023", "2023-03-27 13:10" or "March 27, 2023"'

/**
 * Epoch seconds (UTC) of `value`, or null when it is none of the forms read:
 * - a number or a string of digits: epoch seconds, or milliseconds when that large;
 * - ISO 8601 dates and times: `2023-03-27`, `2023-03-27T13:10:00.5+09:00`, `2023-03-27 13:10`;
 * - a day, an English month name (or its first three letters) and a four-digit year in
 *   either order, with an optional time of day (`13:10`, `1:10 pm`) before or after:
 *   `1:10 pm on 27 March, 2023`, `March 27, 2023`, `27 Mar 2023 13:10`.
 */
export function readTime(value: string | number): number | null {
  if (typeof value === 'number') return epoch(value)
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return epoch(Number(text))
  return iso(text) ?? spoken(text)
}

function epoch(n: number): number | null {
  if (!Number.isFinite(n) || n < 0) return null
  return Math.floor(n >= EPOCH_MS_FROM ? n / 1000 : n)
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i

function iso(text: string): number | null {
  const m = ISO.exec(text)
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = m
  const at = utc(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s))
  return at === null ? null : at - offsetSeconds(zone)
}

function offsetSeconds(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0
  const sign = zone[0] === '-' ? -1 : 1
  const digits = zone.slice(1).replace(':', '')
  return sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2) || '0') * 60)
}

const TIME_OF_DAY = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?=\s|,|$)/i

/** "1:10 pm on 27 March, 2023", "March 27, 2023", "27 Mar 2023 13:10". */
function spoken(text: string): number | null {
  let rest = text
  let hour = 0
  let minute = 0
  let second = 0
  const clock = TIME_OF_DAY.exec(rest)
  if (clock) {
    hour = Number(clock[1])
    minute = Number(clock[2])
    second = Number(clock[3] ?? '0')
    const meridiem = clock[4]?.[0]?.toLowerCase()
    if (meridiem) {
      if (hour < 1 || hour > 12) return null
      hour = (hour % 12) + (meridiem === 'p' ? 12 : 0)
    }
    rest = rest.slice(0, clock.index) + ' ' + rest.slice(clock.index + clock[0].length)
  }
  // What is left is a date: words and numbers, with "on", "the", commas and ordinals as filler.
  const words = rest
    .toLowerCase()
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'on' && w !== 'the' && w !== 'of' && w !== 'at')
  let day: number | null = null
  let month: number | null = null
  let year: number | null = null
  for (const word of words) {
    const monthAt = monthOf(word)
    const number = /^(\d{1,4})(st|nd|rd|th)?$/.exec(word)
    if (monthAt !== -1 && month === null) month = monthAt + 1
    else if (number && number[1]!.length === 4 && !number[2] && year === null) year = Number(number[1])
    else if (number && number[1]!.length <= 2 && day === null) day = Number(number[1])
    else return null
  }
  if (day === null || month === null || year === null) return null
  return utc(year, month, day, hour, minute, second)
}

/** 0–11 for "march", "mar", "mar." (and "sept"); -1 for anything else, "marching" included. */
function monthOf(word: string): number {
  const bare = word.replace(/\.$/, '')
  if (bare === 'sept') return 8
  return MONTHS.findIndex((name) => bare === name || bare === name.slice(0, 3))
}

/** Epoch seconds of a UTC date and time, or null when any part is out of range (31 April, 25:00). */
function utc(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
  if (hour > 23 || minute > 59 || second > 60) return null
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59))
  const check = new Date(ms)
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null
  return ms / 1000
}
