import type { Conversation } from './locomoData'
import { timedFacts } from './timedFacts'

// The second development set (issue 36): long synthetic conversations between a user and a
// persona, made here from a fixed seed, not from LoCoMo. Dozens of dated sessions of small talk
// hold planted facts; each fact has a question asked in other words than it was told (a
// paraphrase, a kind for its member, a relative date to be placed), with its evidence turns.
// A change that helps LoCoMo but not these is LoCoMo-shaped. Each fact also has decoys told in
// other sessions: turns on its topic, with the question's words, that do not answer it (a
// neighbour's puppy, a friend's marathon). The templates were fixed before any change was tried
// on the set; the decoys were added after its first run, because with the sentence model the
// packs found nearly everything (0.967) and a check that everything passes checks nothing.

export const SYNTHETIC_SEED = 20261127

/** Categories of the synthetic set (LoCoMo's are numbers; these are named). */
export type SyntheticCategory = 'single-hop' | 'multi-hop' | 'temporal' | 'paraphrase' | 'inference' | 'changed'

/** A seeded generator (mulberry32): the same seed gives the same conversations everywhere. */
function seeded(seed: number) {
  let s = seed >>> 0
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!
  /** Picks without putting back: each call a different one, until they run out. */
  const deck = <T>(xs: readonly T[]) => {
    const left = [...xs]
    return (): T => left.splice(int(left.length), 1)[0] ?? pick(xs)
  }
  return { next, int, pick, deck }
}
type Rand = ReturnType<typeof seeded>

const USERS = ['Nadia', 'Tomas', 'Priya', 'Elliot', 'Harriet', 'Kenji', 'Lucia', 'Marcus']
const PERSONAS = ['Wren', 'Iris', 'Sol', 'Juniper']
const CITIES = ['Lisbon', 'Vancouver', 'Glasgow', 'Osaka', 'Valparaiso', 'Tallinn', 'Marrakesh', 'Hobart']
const PET_NAMES = ['Biscuit', 'Pepper', 'Mochi', 'Juno', 'Pickles', 'Otto', 'Clementine', 'Waffles']
const PETS = [
  { told: 'a tabby kitten', asked: 'the cat' },
  { told: 'a beagle puppy', asked: 'the dog' },
  { told: 'a grey rabbit', asked: 'the bunny' },
  { told: 'a little parrot', asked: 'the bird' },
] as const
const RELATIVES = [
  { told: 'sister', asked: 'sibling' },
  { told: 'brother', asked: 'sibling' },
  { told: 'aunt', asked: 'relative' },
  { told: 'cousin', asked: 'relative' },
] as const
const RELATIVE_NAMES = ['Ines', 'Rafael', 'Dora', 'Felix', 'Greta', 'Omar', 'Bea', 'Caspar']
const JOBS = [
  { told: 'a pastry chef at a bakery called Crumb & Co', asked: 'what line of work' },
  { told: 'a nurse on the night ward of St Anne hospital', asked: 'what line of work' },
  { told: 'a surveyor for the county roads office', asked: 'what line of work' },
  { told: 'a junior architect at Halden Studio', asked: 'what line of work' },
] as const
/** Instruments, sports and dishes: kinds whose members the user names one by one. */
const KINDS = [
  {
    kind: 'musical instruments',
    asked: 'Which instruments has {u} been learning to play?',
    members: ['cello', 'ukulele', 'harmonica', 'banjo', 'clarinet'],
    say: [
      'I had my first {m} lesson today, my fingers hurt',
      'Practised the {m} for an hour before dinner',
      'My {m} teacher says my rhythm is improving',
    ],
  },
  {
    kind: 'sports',
    asked: 'What sports has {u} taken up?',
    members: ['fencing', 'badminton', 'bouldering', 'rowing', 'squash'],
    say: [
      'Tried {m} for the first time this week, I loved it',
      'Signed up for a {m} club near the office',
      'Sore arms from {m} again, worth it though',
    ],
  },
  {
    kind: 'dishes',
    asked: 'Which dishes has {u} cooked at home?',
    members: ['paella', 'risotto', 'lasagne', 'goulash', 'ratatouille'],
    say: [
      'Made {m} from scratch tonight, it took ages',
      'My {m} finally came out right',
      'Cooked a big pot of {m} for the week',
    ],
  },
] as const
/** Things done on a day told relatively; asked "when", in other words. */
const OUTINGS = [
  { told: 'ran my first half marathon along the river', asked: 'When did {u} complete a 21 km race?' },
  { told: 'passed my driving test on the second try', asked: 'When did {u} get a driving licence?' },
  { told: 'went to the {c} film festival with friends', asked: 'When did {u} attend a movie festival in {c}?' },
  { told: 'gave a talk about bridges at the engineering meetup', asked: 'When did {u} present at a meetup?' },
  { told: 'moved into the new flat with the blue door', asked: 'When did {u} change apartments?' },
  { told: 'volunteered at the food bank downtown', asked: 'When did {u} help out at a charity for meals?' },
] as const
/** Relative days, as people tell them: the session's date anchors them. */
const WHEN = ['Yesterday', 'Last weekend', 'Two days ago', 'Last Saturday', 'A week ago'] as const
/** A habit told plainly, asked as a guess about the user ("would … enjoy"). */
const HABITS = [
  {
    told: 'I spend most Sundays walking ridge trails up in the hills',
    asked: 'Would {u} enjoy a trekking holiday in the mountains?',
  },
  {
    told: 'I reread every Agatha Christie novel each winter',
    asked: 'Is {u} likely to be a fan of detective stories?',
  },
  { told: 'Honestly I get seasick even on the harbour ferry', asked: 'Would {u} like a week-long sailing trip?' },
  { told: 'I keep a sketchbook and draw the people on the tram', asked: 'Does {u} have an artistic hobby?' },
  {
    told: 'Loud crowds drain me, I left the stadium at half time',
    asked: 'Would {u} want tickets to a packed football final?',
  },
] as const
/** Paraphrased facts: told with one set of words, asked with another. */
const PARAPHRASES = [
  {
    told: 'The doctor says I am allergic to peanuts, so no satay for me',
    asked: 'What food must {u} avoid for health reasons?',
  },
  { told: 'I finally paid off the loan for my car, no more monthly payments', asked: 'Which debt did {u} clear?' },
  { told: 'My landlord is raising the rent again in spring', asked: "Is {u}'s housing about to cost more?" },
  { told: 'I switched to decaf because I could not sleep', asked: 'Why did {u} give up caffeine?' },
  {
    told: 'Our team shipped the payroll app after eight months of work',
    asked: "What product did {u}'s group release?",
  },
  {
    told: 'I have been learning Portuguese on the bus every morning',
    asked: 'Which language is {u} studying during the commute?',
  },
] as const

/** Small talk around the facts, sharing their words now and then (a cat seen, a city named). */
const FILLER_USER = [
  'Work was long today, the meeting ran over again',
  'It rained all afternoon so I stayed in with tea',
  'I watched a documentary about {c} last night',
  "My neighbour's dog barked at the postman for ten minutes",
  'The train was late, I read on the platform',
  'I tried a new coffee place near the station',
  'Not much news, just laundry and emails',
  'A friend sent me photos from {c}, it looks beautiful',
  'I need to book a dentist appointment soon',
  'The garden is full of weeds after the holiday',
  'I could not decide what to cook so I ordered noodles',
  'We had a power cut in the evening, candles everywhere',
  'Someone at work brought a cake for no reason',
  'I think I will repaint the kitchen at some point',
  'Spent the morning answering messages from the family chat',
  'My legs ache after taking the stairs all day, the lift is broken',
]
const FILLER_PERSONA = [
  'That sounds like a full day. How are you feeling now?',
  'I hope you got some rest after that.',
  'Tell me more, what was the best part?',
  'Ha, that is very you. What happened next?',
  'I like hearing about your days, even the quiet ones.',
  'Did anything surprise you this week?',
  'That must have been tiring. Be kind to yourself.',
  'What are you looking forward to this weekend?',
  'I remember you mentioning something like that before.',
  'Oh nice! Would you do it again?',
]

interface Planted {
  /** Session and turns in it, as [speaker is user, text]. */
  turns: Array<[boolean, string]>
  /** Which of those turns are evidence. */
  evidence: number[]
  question: string
  category: SyntheticCategory
  /** For a multi-hop fact: the planted parts after the first, each in a later session. */
  later?: Planted[]
  /** Turns of the user's on the same topic that do not answer the question, told in other sessions. */
  decoys?: string[]
  /** A question that names its session's day (timedFacts.ts): made once that day is drawn. */
  ask?: (at: number) => string
}

function fill(template: string, user: string, city: string): string {
  return template.replaceAll('{u}', user).replaceAll('{c}', city)
}

/** The facts one conversation plants, each with its question. */
function plantFacts(r: Rand, user: string): Planted[] {
  const city = r.deck(CITIES)
  const out: Planted[] = []
  const petName = r.deck(PET_NAMES)
  for (let i = 0; i < 2; i++) {
    const pet = r.pick(PETS)
    const name = petName()
    out.push({
      turns: [
        [true, `We adopted ${pet.told} from the shelter this morning!`],
        [false, 'Congratulations! What did you name it?'],
        [true, `${name}. It already sleeps on my keyboard.`],
      ],
      evidence: [0, 2],
      question: `What is the name of ${pet.asked} ${user} brought home from the rescue?`,
      category: 'single-hop',
      decoys: [
        `My neighbour brought home ${pet.told} too, it cries all night.`,
        'The rescue centre near the park needs people to walk the animals.',
      ],
    })
  }
  const relName = r.deck(RELATIVE_NAMES)
  for (let i = 0; i < 2; i++) {
    const rel = r.pick(RELATIVES)
    const c = city()
    out.push({
      turns: [[true, `My ${rel.told} ${relName()} is coming to stay, all the way from ${c}.`]],
      evidence: [0],
      question: `Which city does ${user}'s ${rel.asked} live in?`,
      category: 'single-hop',
      decoys: [`A colleague's ${rel.told} lives in ${city()}, she says the city is lovely.`],
    })
  }
  const job = r.pick(JOBS)
  out.push({
    turns: [
      [true, `Big news: I got the offer, I will be ${job.told}.`],
      [false, 'That is wonderful, you worked so hard for it.'],
    ],
    evidence: [0],
    question: `In ${job.asked} did ${user} get a new position?`,
    category: 'paraphrase',
    decoys: [
      'My friend got a job offer last month but turned the position down.',
      'Work is the same as ever, no news.',
    ],
  })
  for (const kind of [r.pick(KINDS), r.pick(KINDS)].filter((k, i, a) => a.indexOf(k) === i)) {
    const member = r.deck(kind.members)
    const parts: Planted[] = [0, 1, 2].map(() => ({
      turns: [[true, `${r.pick(kind.say).replaceAll('{m}', member())}.`]],
      evidence: [0],
      question: '',
      category: 'multi-hop',
    }))
    // A member played, cooked or done by someone else: a kind's member that is not the answer.
    const other = `My cousin is really into ${member()}, I have never tried it.`
    out.push({ ...parts[0]!, question: fill(kind.asked, user, ''), later: parts.slice(1), decoys: [other] })
  }
  const outing = r.deck(OUTINGS)
  for (let i = 0; i < 3; i++) {
    const o = outing()
    const when = r.pick(WHEN)
    const c = city()
    out.push({
      turns: [
        [true, `${when} I ${fill(o.told, user, c)}.`],
        [false, 'How did it go?'],
        [true, 'Better than I expected, honestly.'],
      ],
      evidence: [0],
      question: fill(o.asked, user, c),
      category: 'temporal',
      decoys: [`My friend keeps telling me she ${fill(o.told, user, city())} years ago.`],
    })
  }
  const habit = r.deck(HABITS)
  for (let i = 0; i < 2; i++) {
    const h = habit()
    out.push({
      turns: [[true, `${h.told}.`]],
      evidence: [0],
      question: fill(h.asked, user, ''),
      category: 'inference',
      decoys: [`My brother asked whether I would enjoy it: ${fill(h.asked, 'I', '').toLowerCase()}`],
    })
  }
  const para = r.deck(PARAPHRASES)
  for (let i = 0; i < 3; i++) {
    const p = para()
    out.push({
      turns: [[true, `${p.told}.`]],
      evidence: [0],
      question: fill(p.asked, user, ''),
      category: 'paraphrase',
      decoys: [`A friend of mine said: ${p.told.toLowerCase()}. Not me though.`],
    })
  }
  return out
}

/** One conversation: `sessions` dated sessions of small talk holding the planted facts. */
function conversation(r: Rand, seed: number, n: number, sessions: number): Conversation {
  const user = USERS[n % USERS.length]!
  const persona = PERSONAS[n % PERSONAS.length]!
  const city = r.pick(CITIES)
  const facts = plantFacts(r, user)
  // Each fact (and each later part of a multi-hop one) gets a session; parts go in order.
  const bySession = new Map<number, Array<{ fact: Planted; part: Planted }>>()
  const put = (session: number, fact: Planted, part: Planted) =>
    bySession.set(session, [...(bySession.get(session) ?? []), { fact, part }])
  const place = (fact: Planted, draws: Rand) => {
    const parts = [fact, ...(fact.later ?? [])]
    let at = draws.int(Math.max(1, sessions - parts.length * 3))
    for (const part of parts) {
      put(at, fact, part)
      at += 1 + draws.int(3)
    }
  }
  for (const fact of facts) place(fact, r)
  // The facts only time tells apart draw from a generator of their own, but the small talk after
  // them draws from the set's: the first conversation kept its facts when these were added, the
  // others were drawn anew (90 questions then, 105 now, multi-hop 12 then 9).
  const timed = seeded(seed + 1 + n)
  const told = timedFacts(timed, user).map((f): Planted => {
    const [first, ...later] = f.parts.map((turns, p) => ({
      turns: turns.map((text): [boolean, string] => [true, text]),
      evidence: f.evidence.filter(([at]) => at === p).map(([, turn]) => turn),
      question: '',
      category: f.category,
    }))
    return { ...first!, later, ask: (at) => f.ask(at) }
  })
  for (const fact of told) place(fact, timed)
  facts.push(...told)
  // Decoys go to sessions drawn at random, before or after the fact.
  const decoysBySession = new Map<number, string[]>()
  for (const fact of facts)
    for (const decoy of fact.decoys ?? []) {
      const at = r.int(sessions)
      decoysBySession.set(at, [...(decoysBySession.get(at) ?? []), decoy])
    }
  const turns: Conversation['turns'] = []
  const evidence = new Map<Planted, string[]>()
  const askedAt = new Map<Planted, number>()
  // 2023-01-09 09:00 UTC onwards, a session every 2–12 days, at a time of day of its own.
  let day = Date.UTC(2023, 0, 9, 9) / 1000
  for (let s = 1; s <= sessions; s++) {
    day += 86_400 * (2 + r.int(11))
    const start = day + 3600 * r.int(10)
    const lines: Array<[boolean, string]> = []
    const small = (k: number) => {
      for (let i = 0; i < k; i++) {
        lines.push([true, `${fill(r.pick(FILLER_USER), user, city)}.`])
        lines.push([false, r.pick(FILLER_PERSONA)])
      }
    }
    small(2 + r.int(3))
    for (const decoy of decoysBySession.get(s - 1) ?? []) {
      lines.push([true, decoy], [false, r.pick(FILLER_PERSONA)])
      small(r.int(2))
    }
    for (const { fact, part } of bySession.get(s - 1) ?? []) {
      if (part === fact) askedAt.set(fact, start)
      const first = lines.length
      lines.push(...part.turns)
      const ids = part.evidence.map((e) => `D${s}:${first + e + 1}`)
      evidence.set(fact, [...(evidence.get(fact) ?? []), ...ids])
      small(1 + r.int(2))
    }
    small(1 + r.int(3))
    lines.forEach(([byUser, text], i) =>
      turns.push({ id: `D${s}:${i + 1}`, speaker: byUser ? user : persona, text, at: start + i * 30 }),
    )
  }
  return {
    id: `synthetic-${n}`,
    turns,
    lines: turns.map((t) => JSON.stringify({ id: t.id, speaker: t.speaker, text: t.text, time: t.at })),
    questions: facts.map((f) => ({
      question: f.ask ? f.ask(askedAt.get(f)!) : f.question,
      category: CATEGORY_CODES[f.category],
      evidence: evidence.get(f)!,
    })),
  }
}

/** Categories as numbers, so the LoCoMo tallies serve both sets; names in CATEGORY_NAMES. */
const CATEGORY_CODES: Record<SyntheticCategory, number> = {
  'single-hop': 1,
  'multi-hop': 2,
  temporal: 3,
  paraphrase: 4,
  inference: 5,
  changed: 6,
}
export const SYNTHETIC_CATEGORY_NAMES = Object.fromEntries(
  Object.entries(CATEGORY_CODES).map(([name, code]) => [code, name]),
) as Record<number, SyntheticCategory>

/** The synthetic set: `count` conversations of `sessions` sessions, the same for a seed. */
export function personaConversations(seed = SYNTHETIC_SEED, count = 6, sessions = 40): Conversation[] {
  const r = seeded(seed)
  return Array.from({ length: count }, (_, n) => conversation(r, seed, n, sessions))
}
