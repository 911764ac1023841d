import { SPEAKER } from './speakers'

/**
 * Where a sentence ends: after `. ! ?`, or after a photo's caption ("[shares a photo: …]"),
 * which is a sentence of its own. The embed job split after `. ! ?` only and the pack's
 * trimming after the bracket too (issue 36); measured both ways on LoCoMo conversations 0–2,
 * the figures are the same to the last digit (hashed 0.8626, with the sentence model 0.8957;
 * the synthetic set 0.7556 / 0.9852): LoCoMo's captions close their turn, so the bracket
 * never splits one there. Kept for a turn that goes on after its photo.
 */
const SENTENCE_END = /(?<=[.!?\]])\s+/

/** A line of a turn ("Speaker: text") as its speaker's head and the sentences after it. */
export interface SpokenLine {
  /** "Melanie: " as written, or '' when the line names no speaker. */
  head: string
  /** "Melanie", or null. */
  speaker: string | null
  sentences: string[]
}

/**
 * The one sentence splitter of memory: the sentences the embedding model reads one at a time
 * (embedJob.sentencesOf) and those a long turn is packed as (pack/trimLine.ts) are the same.
 */
export function speakerSentences(line: string): SpokenLine {
  const match = SPEAKER.exec(line)
  const body = match ? line.slice(match[0].length) : line
  return { head: match?.[0] ?? '', speaker: match?.[1] ?? null, sentences: body.split(SENTENCE_END) }
}
