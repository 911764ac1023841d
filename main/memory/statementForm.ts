import { otherVerbForms, pastOf } from './irregularVerbs'
import { isSentenceModel } from './sentenceModel'
import { tuning } from './tuning'

// Query rewriting without a model: a memory holds statements ("I went to the support group
// yesterday"), a user asks questions ("When did Caroline go to the support group?"). The
// question is turned into the statement that would answer it, and the verbs it names get their
// other forms, so that search meets the memory's own words.

const WH = '(?:when|where|what|which|who|whom|whose|why|how)'
const AUX = '(did|does|do|is|are|was|were|has|have|had|will|would|can|could|should|might|may)'
/** A subject: a name or two (possibly possessive), or a pronoun. */
const SUBJECT = "((?:\\p{Lu}[\\p{L}'’-]*\\s+){0,2}\\p{Lu}[\\p{L}'’-]*|you|he|she|we|they|it)"
/** Case matters for the subject (a name is capitalised), so the first word is lowered before matching. */
const QUESTION = new RegExp(`^${WH}((?:\\s+[a-z]+){0,3}?)\\s+${AUX}\\s+${SUBJECT}\\s+(.*?)[?.!\\s]*$|^${AUX}\\s+${SUBJECT}\\s+(.*?)[?.!\\s]*$`, 'u')

/**
 * The statement form of a question ("What did Melanie paint?" → "Melanie painted"), or the
 * text as it is when it does not read as one. "did" puts the verb after the subject in the
 * past; another auxiliary goes after the subject ("Is Jon a dancer?" → "Jon is a dancer").
 * The question word is dropped: it is what the answer supplies, never a word the memory holds.
 */
export function statementForm(query: string): string {
  const text = query.trim().replace(/^\p{Lu}/u, (c) => c.toLowerCase())
  const m = QUESTION.exec(text)
  if (!m) return query
  // Either the wh-question's groups (1–4) or the yes/no question's (5–7).
  const [asked, auxiliary, subject, rest] = m[2] ? [m[1]!, m[2], m[3]!, m[4]!] : ['', m[5]!, m[6]!, m[7]!]
  const words = rest.split(/\s+/).filter(Boolean)
  // What the question word asks about ("What book…") stays: it names what the memory holds.
  const tail = asked.trim() ? [asked.trim()] : []
  if (auxiliary === 'did' && words.length > 0 && /^[a-z]+$/.test(words[0]!))
    return [subject, pastOf(words[0]!), ...words.slice(1), ...tail].join(' ')
  if (auxiliary === 'do' || auxiliary === 'does') return [subject, ...words, ...tail].join(' ')
  // "What is Caroline's identity?" → "Caroline's identity is".
  if (/['’]s$/.test(subject)) return [subject, ...words, auxiliary, ...tail].join(' ')
  return [subject, auxiliary, ...words, ...tail].join(' ')
}

/** The query's irregular verbs in their other forms ("go" → went, gone), each once. */
export function verbForms(query: string): string[] {
  const out = new Set<string>()
  for (const word of query.toLowerCase().match(/[a-z]+/g) ?? []) for (const f of otherVerbForms(word)) out.add(f)
  return [...out]
}

/**
 * The text the persona's embedding model embeds for a query: the built-in sentence model places
 * a question far from the statement that answers it, so it embeds the statement form (measured
 * with that model only; a provider's model gets the query as it is).
 */
export function modelQueryText(model: string, query: string): string {
  return isSentenceModel(model) && tuning.statementQuery > 0 ? statementForm(query) : query
}
