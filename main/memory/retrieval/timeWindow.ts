import { MONTHS } from '../store/importTime'
import { UnitKind, UnitState } from '../store/enums'
import { note, rrf, unitsByIds, type Hit } from './hits'
import type { MemoryStore, UnitRow } from '../store/store'
import { toldTimes, type Span } from '../store/toldTime'
import { tuning } from './tuning'
import { unitRowsOf } from '../store/unitRows'

// When a query names a month or a year ("in October 2023", "in May", "during 2022") or a day
// ("on 6 May 2023", "last Saturday"), the units of that time weigh more: what happened then is
// what the question is about. A unit is of that time when it was said then, or when it tells of
// a day then ("Yesterday I…", said the day after: toldTime.ts).

const SHORT = MONTHS.map((m) => m.slice(0, 3))

export interface TimeWindow {
  /** 0–11, when a month is named. */
  month: number | null
  year: number | null
  /** When the query names a day or a week (the month and year then do not count). */
  days?: Span
}

const DAY = 86_400
/** The longest time a query's named day may span: a week ("last week"). */
const WEEK = 7 * DAY

/**
 * The month and year a query names, or null. "May" counts only after a preposition ("in May",
 * "during May") or beside a year: "may" is also a verb. Years 1900–2099.
 */
export function queryTimeWindow(query: string, now?: number): TimeWindow | null {
  // A day, told as a date or relatively to now ("yesterday", "last Saturday"); beside a date
  // written out, a relative day counts from that date ("last weekend before April 10, 2023").
  const told = toldTimes(query, now ?? Date.now() / 1000)
  const written = told.find((t) => !t.relative)
  const relative = told.find((t) => t.relative)
  const anchored = relative && written ? toldTimes(relative.text, written.from + DAY / 2)[0] : relative
  const day = [anchored, written].find((t) => t && t.to - t.from <= WEEK)
  if (day) return { month: null, year: null, days: { from: day.from, to: day.to } }
  const text = query.toLowerCase()
  const year = /\b(19|20)\d\d\b/.exec(text)
  let month: number | null = null
  for (const m of text.matchAll(/\b(?:(in|during|of|since|until|by|early|late|mid|last|this|next)\s+)?([a-z]+)\b/g)) {
    const word = m[2]!
    const full = MONTHS.indexOf(word)
    const short = word.length === 3 || word === 'sept' ? SHORT.indexOf(word.slice(0, 3)) : -1
    const at = full >= 0 ? full : short
    if (at < 0) continue
    // Abbreviations and "may" need a preposition before them or a year after them.
    const ambiguous = full < 0 || word === 'may' || word === 'march'
    if (ambiguous && !m[1] && !year) continue
    month = at
    break
  }
  if (month === null && !year) return null
  return { month, year: year ? Number(year[0]) : null }
}

/** Whether a unit happened inside the window (its month and year, as far as they are named; UTC). */
export function inWindow(unit: Pick<UnitRow, 'occurred_at' | 'created_at'>, window: TimeWindow): boolean {
  return atTime(unit.occurred_at ?? unit.created_at, window)
}

function atTime(seconds: number, window: TimeWindow): boolean {
  if (window.days) return seconds >= window.days.from && seconds < window.days.to
  const at = new Date(seconds * 1000)
  return (
    (window.month === null || at.getUTCMonth() === window.month) &&
    (window.year === null || at.getUTCFullYear() === window.year)
  )
}

/** Whether a time a text tells falls in the window: overlaps its days, or its middle is in its month or year. */
function toldIn(told: Span, window: TimeWindow): boolean {
  if (window.days) return told.from < window.days.to && told.to > window.days.from
  return atTime((told.from + told.to) / 2, window)
}

/** The time a query names, and which units are of it. */
export interface NamedTime {
  /** Of these units, the ids of those said at that time or telling of a day in it. */
  of(units: Iterable<UnitRow>): Set<number>
  /**
   * For a named day or week: the episodes said in the month after it that tell of it ("Two
   * days ago I…"), oldest first. Words cannot find them ("What did Nadia do on 17 February?"
   * shares no word with "Two days ago I had my wisdom tooth pulled"), and they are few.
   */
  tellers(): number[]
}

/** How long after a day people still tell of it relatively ("last month", "three weeks ago"). */
const TOLD_REACH = 35 * 86_400
/** The most episodes read for tellers: a month of a busy chat. */
const TOLD_ROWS = 2000

/**
 * The time the query names (relative days placed by `now`), or null when it names none. The
 * days a unit tells of are read once per unit and kept with its text (unitRows.ts).
 */
export function namedTime(store: MemoryStore, query: string, now: number): NamedTime | null {
  const window = queryTimeWindow(query, now)
  if (!window) return null
  const told = (said: ReadonlyMap<number, number>) =>
    unitRowsOf(store).derivedOf('toldTimes', [...said.keys()], (text, id) => toldTimes(text, said.get(id)!))
  return {
    of(units) {
      const out = new Set<number>()
      const said = new Map<number, number>()
      for (const u of units)
        if (inWindow(u, window)) out.add(u.id)
        else said.set(u.id, u.occurred_at ?? u.created_at)
      for (const [id, times] of told(said)) if (times.some((t) => toldIn(t, window))) out.add(id)
      return out
    },
    tellers() {
      if (!window.days) return []
      const rows = store
        .prepare(
          `SELECT id, coalesce(occurred_at, created_at) AS at FROM units WHERE kind = ${UnitKind.EPISODE}
           AND coalesce(occurred_at, created_at) >= ? AND coalesce(occurred_at, created_at) < ? AND state != ${UnitState.ARCHIVED}
           ORDER BY coalesce(occurred_at, created_at), id LIMIT ${TOLD_ROWS}`,
        )
        .all(window.days.from, window.days.to + TOLD_REACH) as Array<{ id: number; at: number }>
      const times = told(new Map(rows.map((r) => [r.id, r.at])))
      return rows.filter((r) => times.get(r.id)?.some((t) => toldIn(t, window))).map((r) => r.id)
    },
  }
}

/**
 * The episodes that tell of the day the query names join the finds as a ranking of their own
 * (reciprocal rank at weight 1, as the sentences' ranking: not tuned), and the time's units
 * weigh more (boostNamedTime).
 */
export function addTellers(store: MemoryStore, time: NamedTime | null, fused: Map<number, Hit>): void {
  const ids = time?.tellers() ?? []
  const rows = new Map(unitsByIds(store, ids).map((u) => [u.id, u]))
  ids.forEach((id, rank) => {
    const unit = rows.get(id)
    if (!unit) return
    const hit = fused.get(id) ?? { unit, score: 0, came: '' }
    hit.score += rrf(rank)
    note(hit, `, tells of the day named #${rank + 1}`)
    fused.set(id, hit)
  })
}

/** Units of the time the query names: score × (1 + `timeBoost`). */
export function boostNamedTime(time: NamedTime | null, fused: Map<number, Hit>): void {
  if (!time || tuning.timeBoost === 0) return
  const inside = time.of([...fused.values()].map((h) => h.unit))
  for (const id of inside) {
    const hit = fused.get(id)!
    hit.score *= 1 + tuning.timeBoost
    note(hit, '; at the time named')
  }
}
