import { MONTHS } from './importTime'
import type { Hit } from './retrieval'
import type { UnitRow } from './store'
import { tuning } from './tuning'

// When a query names a month or a year ("in October 2023", "in May", "during 2022"), the
// units of that time weigh more: what happened then is what the question is about.

const SHORT = MONTHS.map((m) => m.slice(0, 3))

export interface TimeWindow {
  /** 0–11, when a month is named. */
  month: number | null
  year: number | null
}

/**
 * The month and year a query names, or null. "May" counts only after a preposition ("in May",
 * "during May") or beside a year: "may" is also a verb. Years 1900–2099.
 */
export function queryTimeWindow(query: string): TimeWindow | null {
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
  const at = new Date((unit.occurred_at ?? unit.created_at) * 1000)
  return (
    (window.month === null || at.getUTCMonth() === window.month) &&
    (window.year === null || at.getUTCFullYear() === window.year)
  )
}

/** Units of the time the query names: score × (1 + `timeBoost`). */
export function boostNamedTime(query: string, fused: Map<number, Hit>): void {
  const window = queryTimeWindow(query)
  if (!window || tuning.timeBoost === 0) return
  for (const hit of fused.values())
    if (inWindow(hit.unit, window)) {
      hit.score *= 1 + tuning.timeBoost
      hit.why = `${hit.why}; at the time named`
    }
}
