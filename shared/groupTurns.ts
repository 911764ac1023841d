// Who speaks next in a group scene (issue #40): one rule for the composer, which shows it before
// the user sends, and for the main process, which applies it when a caller names nobody.

import type { CastMember, TurnOrder } from './contract/graph'

export type { CastMember, TurnOrder }

export interface SpeakerInput {
  cast: readonly CastMember[]
  order: TurnOrder
  /** A member's name as the user writes it (the persona's name). */
  nameOf: (personaId: string) => string | undefined
  /** The user's new message; empty when another member is asked to go on without one. */
  prompt: string
  /** Who spoke the reply this turn follows (null: nobody yet, or the user alone). */
  lastSpeaker: string | null
  /** That reply's text: with no prompt, a member it names is addressed (as SillyTavern's natural order). */
  lastReply?: string
  /** Chosen by hand in the composer: wins over the order, muted or not, while it is in the cast. */
  picked?: string | null
}

/**
 * The member who answers: the one picked by hand; else, in "addressed" order, the member whose
 * name comes first in the prompt (with no prompt, in the last reply, never its own speaker); else
 * the next unmuted member after the last speaker in the cast's order. "manual" with nothing picked
 * goes round like "round_robin": a caller naming nobody still gets an answer. Null when every
 * member is muted (or gone) and nobody was picked.
 */
export function nextSpeaker(input: SpeakerInput): string | null {
  // A member whose persona is gone (deleted) is no one to answer: it takes no turn.
  const cast = input.cast.map((m) => (input.nameOf(m.persona_id) === undefined ? { ...m, muted: true } : m))
  if (input.picked && cast.some((m) => m.persona_id === input.picked)) return input.picked
  const open = cast.filter((m) => !m.muted)
  if (open.length === 0) return null
  if (input.order === 'addressed') {
    const text = input.prompt.trim() || input.lastReply || ''
    const listeners = input.prompt.trim() ? open : open.filter((m) => m.persona_id !== input.lastSpeaker)
    const named = firstNamed(text, listeners, input.nameOf)
    if (named) return named
  }
  return nextInTurn(cast, input.lastSpeaker)
}

/** The unmuted member after `last` in the cast's order, going round; the first unmuted one when `last` is not in it. */
export function nextInTurn(cast: readonly CastMember[], last: string | null): string | null {
  const at = cast.findIndex((m) => m.persona_id === last)
  for (let step = 1; step <= cast.length; step++) {
    const m = cast[(at + step + cast.length) % cast.length]!
    if (!m.muted) return m.persona_id
  }
  return null
}

/** The member whose name (whole, or one of its words) appears first in the text; null when none does. */
export function firstNamed(
  text: string,
  members: readonly CastMember[],
  nameOf: (personaId: string) => string | undefined,
): string | null {
  let best: { id: string; at: number } | null = null
  for (const m of members) {
    const name = nameOf(m.persona_id)
    if (!name) continue
    const at = mentionAt(text, name)
    if (at >= 0 && (!best || at < best.at)) best = { id: m.persona_id, at }
  }
  return best?.id ?? null
}

/**
 * Where the text first names this person, or -1: the whole name or any word of it of two
 * characters or more, ignoring case. A word of a script written with spaces (Latin, Greek,
 * Cyrillic) must stand as a word ("Al" is not found in "Also"); Japanese and Chinese have no
 * spaces, so there a name is found wherever it is written ("ミカさん").
 */
export function mentionAt(text: string, name: string): number {
  const haystack = text.toLocaleLowerCase()
  const whole = name.trim().toLocaleLowerCase()
  const terms = new Set([whole, ...whole.split(/[\s\p{P}]+/u).filter((w) => [...w].length >= 2)])
  let first = -1
  for (const term of terms) {
    if (!term) continue
    for (let from = 0; ;) {
      const at = haystack.indexOf(term, from)
      if (at < 0) break
      if (standsAlone(haystack, at, term)) {
        if (first < 0 || at < first) first = at
        break
      }
      from = at + 1
    }
  }
  return first
}

const SPACED = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}_]/u

function standsAlone(text: string, at: number, term: string): boolean {
  const before = text.slice(0, at).at(-1) ?? ''
  const after = text.at(at + term.length) ?? ''
  const start = term[0]!
  const end = term.at(-1)!
  return !(SPACED.test(start) && SPACED.test(before)) && !(SPACED.test(end) && SPACED.test(after))
}
