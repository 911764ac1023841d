import { queryWords } from './queryWords'
import { note, type Hit } from './hits'
import type { MemoryStore } from '../store/store'
import { UnitKind } from '../store/enums'
import { tuning } from './tuning'
import { unitRowsOf } from '../store/unitRows'

/** "Caroline: I went…" → "caroline": an imported turn's text starts with its speaker. */
export const SPEAKER = /^([^:\n]{1,40}):\s/

/**
 * Turns spoken by someone the query names weigh more: "What did Caroline research?" is
 * answered by Caroline's own turns far more often than by what others say to her (LoCoMo
 * conversations 0–2: 83% of the evidence of a question naming one speaker). The name itself
 * is in half the turns of a two-person log, so BM25 gives it almost no weight.
 */
export function boostNamedSpeakers(store: MemoryStore, query: string, fused: Map<number, Hit>): void {
  const { names } = queryWords(query)
  if (names.size === 0 || tuning.speakerBoost === 0) return
  const episodes = [...fused.values()].filter((h) => h.unit.kind === UnitKind.EPISODE).map((h) => h.unit.id)
  if (episodes.length === 0) return
  // From the texts packs keep (unitRows.ts), not read again: the pack reads most of them anyway.
  const texts = unitRowsOf(store).textsOf(episodes)
  for (const [id, text] of texts) {
    const speaker = namedSpeaker(text, names)
    if (!speaker) continue
    const hit = fused.get(id)!
    hit.score *= 1 + tuning.speakerBoost
    note(hit, `; spoken by ${speaker}`)
  }
}

/** The turn's speaker (lower case) when the query names them ("Caroline" of "Caroline Lee: …"), else null. */
export function namedSpeaker(text: string, names: ReadonlySet<string>): string | null {
  const speaker = SPEAKER.exec(text)?.[1]?.toLowerCase()
  return speaker && speaker.split(/\s+/).some((w) => names.has(w)) ? speaker : null
}
