import type { MemoryStore, UnitRow } from '../store/store'
import { tuning } from './tuning'
import { unitRowsOf } from '../store/unitRows'

// What every ranking of a pack's retrieval shares: a find with its fused score, the reciprocal
// rank it is fused by, and the rows of units by id. Its own module, so that the rankings
// (words, speakers, time, the ranker's features) and the fusion that reads them import no cycle.

/** Reciprocal-rank fusion's share for a list's rank (0 the best): k / (k + rank). */
export function rrf(rank: number): number {
  return tuning.rrfK / (tuning.rrfK + rank)
}

/** A unit retrieval found, with its fused score and why. */
export interface Hit {
  unit: UnitRow
  score: number
  /**
   * How it came when no ranking brought it: '' for an entity link or a told day, `next to #id`
   * for a neighbouring turn. Absent for the rankings' finds, whose reasons are written from the
   * rankings (retrieval.ts: rankingReasons) only when the inspector reads them: written for
   * every find, they were a fifth of what a pack allocated, for the ~50 a pack keeps.
   */
  came?: string
  /** Reasons added after retrieval ("; spoken by …"), each starting with its separator. */
  notes?: string[]
  /** The hit it was brought beside (addNeighbours), when it came as a neighbouring turn. */
  near?: number
}

/**
 * Why a hit was found, as the inspector shows it: how it came (`ranked`: its rankings'
 * reasons, for a find of the rankings), then its notes. A note after ", " is the whole reason
 * when there is none before it.
 */
export function hitReason(hit: Hit, ranked: (id: number) => string): string {
  let why = hit.came ?? ranked(hit.unit.id)
  for (const note of hit.notes ?? []) why = !why && note.startsWith(', ') ? note.slice(2) : why + note
  return why
}

/** Adds a reason to a hit's notes (see hitReason). */
export function note(hit: Hit, text: string): void {
  ;(hit.notes ??= []).push(text)
}

/** The units' rows (kept between packs: unitRows.ts), read-only. */
export function unitsByIds(store: MemoryStore, ids: number[]): UnitRow[] {
  return unitRowsOf(store).of(ids)
}
