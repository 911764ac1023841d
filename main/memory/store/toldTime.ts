import * as chrono from 'chrono-node'
import { isoDate } from './store'

// Days a text speaks of, placed by the time it was said: "Yesterday I ran my first half
// marathon", said on 8 May 2023, is about 7 May. The memory keeps when a turn was said; what it
// tells happened often days before ("last Saturday", "two weeks ago"), and a question asks by the
// day it happened ("What did Nadia do on 6 May?"), or a reader of the pack must count back from
// the day heading. chrono-node reads the dates (English).

const DAY = 86_400
const WEEKDAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday'
/**
 * What a relative day cannot be told without: parsing a text costs chrono ~0.3–1 ms, so only
 * texts holding one of these are read ("last time" or "this is" hold none).
 */
const RELATIVE = new RegExp(
  `\\b(yesterday|today|tonight|tomorrow|ago|(last|next|this|past) (week|weekend|month|year|${WEEKDAY})|${WEEKDAY}|weekend)\\b`,
  'i',
)
const MONTH =
  /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{1,2}(st|nd|rd|th)?\s+(of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i

/** A stretch of time a text names, in seconds (UTC, from inclusive, to exclusive). */
export interface Span {
  from: number
  to: number
}

/** A day (or week, month, year) a text names, where it says so, and whether it said so relatively. */
export interface ToldTime extends Span {
  /** The words that named it, and where they start in the text. */
  text: string
  index: number
  relative: boolean
}

/** Whether a text may name a day: what is worth parsing. */
export function mayTellTime(text: string): boolean {
  return RELATIVE.test(text) || MONTH.test(text)
}

/**
 * The times a text names, each placed by `at` (seconds: when it was said): a named day is that
 * day, "last week" the seven days around a week before, "last month" that month, "last year"
 * that year. Times of day alone ("at 7 am") name no day and are left out.
 */
export function toldTimes(text: string, at: number): ToldTime[] {
  if (!mayTellTime(text)) return []
  const out: ToldTime[] = []
  for (const r of chrono.en.casual.parse(text, { instant: new Date(at * 1000), timezone: 0 })) {
    const start = r.start
    const date = start.date()
    const known = (c: 'day' | 'weekday' | 'month' | 'year') => start.isCertain(c)
    const dayStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) / 1000
    let span: Span
    // "The week before 9 June": the seven days up to that day.
    if (/\bweek before\b/i.test(r.text)) span = { from: dayStart, to: dayStart + 7 * DAY }
    else if (/\b(last|next|this|past) week\b/i.test(r.text) && !known('weekday')) {
      // That calendar week, Monday to Sunday.
      const from = dayStart - ((date.getUTCDay() + 6) % 7) * DAY
      span = { from, to: from + 7 * DAY }
    } else if (/\bweekend\b/i.test(r.text)) span = { from: dayStart - DAY, to: dayStart + DAY }
    else if (known('day') || known('weekday')) span = { from: dayStart, to: dayStart + DAY }
    else if (known('month'))
      span = {
        from: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000,
        to: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000,
      }
    else if (known('year'))
      span = {
        from: Date.UTC(date.getUTCFullYear(), 0, 1) / 1000,
        to: Date.UTC(date.getUTCFullYear() + 1, 0, 1) / 1000,
      }
    else continue
    // "On Friday, 17 February 2023" needs no anchor; "last Friday", "two days ago" do.
    const relative = !/\d{4}|\d{1,2}(st|nd|rd|th)?\s+[a-z]{3}|[a-z]{3}[a-z]*\.?\s+\d/i.test(r.text)
    out.push({ ...span, text: r.text, index: r.index, relative })
  }
  return out
}

/**
 * The text with each relatively told day followed by its date, placed by `at`: "Yesterday
 * (2023-05-07) I ran…". What the pack lists, so that a reply can say when it happened without
 * counting back from the day heading. Text that tells no day comes back as it was.
 */
export function anchorTold(text: string, at: number | null): string {
  if (at === null) return text
  const told = toldTimes(text, at).filter((t) => t.relative)
  let out = text
  // From the end, so that earlier indexes still hold.
  for (const t of told.sort((a, b) => b.index - a.index)) {
    const end = t.index + t.text.length
    out = `${out.slice(0, end)} (${label(t)})${out.slice(end)}`
  }
  return out
}

/** A told time's date as the pack writes dates: a day, or the month or year it spans. */
function label(t: Span): string {
  const length = t.to - t.from
  if (length <= DAY) return isoDate(t.from)
  if (length <= 7 * DAY) return `${isoDate(t.from)} to ${isoDate(t.to - DAY)}`
  if (length <= 31 * DAY) return isoDate(t.from).slice(0, 7)
  return isoDate(t.from).slice(0, 4)
}
