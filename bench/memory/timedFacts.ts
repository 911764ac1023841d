// Facts of the synthetic set (personaConversations.ts) that only time tells apart: a day told
// relatively ("Yesterday I…", "Last Saturday we…") and asked by its date, and a liking that
// changed, asked as it stands now. Added after the set's first figures (issue 36 asks for both),
// with templates fixed before any method was tried on them.

/** The few draws these need, from the set's seeded generator. */
export interface Draws {
  pick<T>(xs: readonly T[]): T
  deck<T>(xs: readonly T[]): () => T
}

/** A day told relatively, and how many days before the session it was (or the weekday it was). */
const TOLD_DAYS = [
  { told: 'Yesterday', back: 1 },
  { told: 'Two days ago', back: 2 },
  { told: 'Three days ago', back: 3 },
  { told: 'Last Saturday', weekday: 6 },
  { told: 'Last Tuesday', weekday: 2 },
] as const
/** Things done once, each with words no question repeats. */
const DAY_EVENTS = [
  'had my wisdom tooth pulled, my face is still puffy',
  'took the early ferry to the island and walked the cliff path',
  'helped Sam carry a piano up three flights of stairs',
  'got stuck in the office lift for an hour with the caretaker',
  'won the pub quiz with the team from the fourth floor',
  'planted tomatoes and basil in the allotment',
  'sat the first exam for my accountancy certificate',
] as const
/** A liking told, and later changed: asked as it stands now. */
const LIKINGS = [
  {
    first: 'My go-to drink is {a}, I have it every morning',
    then: 'I have gone right off {a}, it is all {b} now',
    options: ['green tea', 'black coffee', 'hot chocolate', 'oat latte'],
    asked: 'What does {u} prefer to drink these days?',
  },
  {
    first: 'I keep {a} on repeat while I work',
    then: 'Funny, I cannot stand {a} any more, I only put on {b}',
    options: ['old jazz records', 'film soundtracks', 'eighties synth pop', 'bluegrass'],
    asked: 'Which music does {u} listen to at the moment?',
  },
  {
    first: 'Our Friday ritual is dinner at {a}',
    then: 'We stopped going to {a}, Fridays are at {b} now',
    options: ['the Lebanese grill', 'the noodle bar', 'the corner pizzeria', 'the fish shack'],
    asked: "Where does {u}'s household eat out on Fridays now?",
  },
] as const

/** "Saturday 14 January 2023": the day `back` days before `at` (seconds, UTC), or its last `weekday`. */
export function dayBefore(at: number, day: { back?: number; weekday?: number }): string {
  const d = new Date(at * 1000)
  const back = day.back ?? ((d.getUTCDay() - day.weekday! + 7) % 7 || 7)
  d.setUTCDate(d.getUTCDate() - back)
  return d.toLocaleDateString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

export interface TimedFact {
  /** Each part in a session of its own, in order: the user's turns. */
  parts: string[][]
  /** The evidence: [part, turn] of each. */
  evidence: Array<[number, number]>
  /** The question, once the first part's session time (seconds) is known. */
  ask(at: number): string
  category: 'temporal' | 'changed'
}

/** Two days told relatively and asked by their date, and one changed liking. */
export function timedFacts(r: Draws, user: string): TimedFact[] {
  const event = r.deck(DAY_EVENTS)
  const out: TimedFact[] = []
  for (let i = 0; i < 2; i++) {
    const day = r.pick(TOLD_DAYS)
    out.push({
      parts: [[`${day.told} I ${event()}.`]],
      evidence: [[0, 0]],
      ask: (at) => `What did ${user} do on ${dayBefore(at, day)}?`,
      category: 'temporal',
    })
  }
  const liking = r.pick(LIKINGS)
  const option = r.deck(liking.options)
  const [a, b] = [option(), option()]
  out.push({
    parts: [[`${liking.first.replace('{a}', a)}.`], [`${liking.then.replace('{a}', a).replace('{b}', b)}.`]],
    evidence: [[1, 0]],
    ask: () => liking.asked.replace('{u}', user),
    category: 'changed',
  })
  return out
}
