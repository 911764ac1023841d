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
  why: string
  /** The hit it was brought beside (addNeighbours), when it came as a neighbouring turn. */
  near?: number
}

/** The units' rows (kept between packs: unitRows.ts), read-only. */
export function unitsByIds(store: MemoryStore, ids: number[]): UnitRow[] {
  return unitRowsOf(store).of(ids)
}
