// A query read for word search: its content words (stop words and question filler out) and
// which of them are names. Stemming is left to the index's tokenizer
// (FTS5's Porter stemmer applies to the query's words as to the stored text).

/** Function words and the filler of questions ("what kind of", "would … likely"): they rank nothing. */
export const STOP_WORDS = new Set(
  `a an the and or but nor of to in on at by for with from into onto over under about as than then so if
  is are was were be been being am do does did done doing have has had having will would shall should can
  could may might must it its it's this that these those there here i me my mine you your yours we us our
  he him his she her hers they them their theirs what when where who whom whose which why how
  not no yes just also very much many more most some any all each every both such other own same too
  like likely kind type sort way ever still really something anything things thing one ones get got
  s t don didn doesn isn wasn aren weren ve ll re d m`.split(/\s+/),
)

export interface QueryWords {
  /** Content words, lower case, each once, in query order. */
  words: string[]
  /** Those written capitalised inside the sentence: names weigh more. */
  names: Set<string>
}

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu
/** Japanese and Chinese characters: no spaces between words. */
export const CJK = /[\u3040-\u30ff\u3400-\u9fff]/

/** Reads a query; CJK runs are left to the trigram index (unicode61 sees them as one word). */
export function queryWords(query: string): QueryWords {
  const words: string[] = []
  const names = new Set<string>()
  const text = query.normalize('NFKC')
  let end = -1
  for (const match of text.matchAll(WORD)) {
    const raw = match[0].replace(/'s$/i, '')
    const word = raw.toLowerCase()
    // The first word, or the first after a full stop: capitalised by grammar, not as a name.
    const sentenceStart = end < 0 || /[.!?]/.test(text.slice(end, match.index))
    end = match.index + match[0].length
    if (STOP_WORDS.has(word) || CJK.test(word) || (word.length < 2 && !/\d/.test(word))) continue
    if (!words.includes(word)) words.push(word)
    if (!sentenceStart && /^\p{Lu}/u.test(raw)) names.add(word)
  }
  return { words, names }
}
