import { queryWords } from '../retrieval/queryWords'
import { speakerSentences } from '../retrieval/speakerSentences'
import { stem } from '../store/embedder'

// A pack of chat turns spends most of its budget on what a turn says besides the answer
// ("Thanks, Mel! … Anyway, I finally took up pottery yesterday. How are the kids?"). A long
// turn cut to its sentences that hold the query's words leaves room for more turns: more of a
// multi-hop question's evidence fits in the same budget. Names are not words to keep a sentence
// by: a two-person chat greets its partner by name in nearly every turn.

/**
 * The query's content words other than names, suffixes folded as the local vectors fold them,
 * as one pattern that finds any of them with a suffix or none (made once a pack: a pack tries
 * ~100 turns). Null when the query has none.
 */
export function askedWords(query: string): RegExp | null {
  const { words, names } = queryWords(query)
  const stems = [...new Set(words.filter((w) => !names.has(w)).map(stem))]
  if (stems.length === 0) return null
  const alternatives = stems.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')
  // Word edges by \w, not Unicode's letters: a pattern with \p{L} takes ~3 ms to compile, and
  // every pack makes a new one (the asked words, when there are any, are English).
  return new RegExp(`(?<!\\w)(?:${alternatives})(?:ing|ed|es|s)?(?!\\w)`, 'i')
}

/**
 * A turn's line ("Speaker: text") cut to its sentences holding an asked word, joined by "…";
 * the line as it was when no sentence holds one (retrieval found it by meaning, not words) or
 * every one does.
 */
export function trimmedToAsked(line: string, asked: RegExp | null): string {
  if (!asked) return line
  const { head, sentences } = speakerSentences(line)
  if (sentences.length < 2) return line
  const kept = sentences.filter((s) => asked.test(s))
  if (kept.length === 0 || kept.length === sentences.length) return line
  return head + kept.join(' … ')
}
