import { parseModelRef } from '../../llm/models'
import type { MemoryJobContext } from './jobContext'
import { embedAllFor, hasDirty, SENTENCES_KEPT, takeDirty, writeModelVectors } from '../store/modelVectors'
import { speakerSentences } from '../retrieval/speakerSentences'
import { embedSentences, isSentenceModel } from '../retrieval/sentenceModel'
import { embedWords, isWordsModel } from '../retrieval/wordVectors'
import { UnitKind } from '../store/enums'
import type { MemoryStore, UnitRow } from '../store/store'

/** Units per embedding request: every provider accepts this many inputs at once. */
const BATCH = 64
/**
 * The built-in sentence model computes in this thread: small batches (~8 ms a text) keep a
 * waiting query's embedding (sentenceQueries.ts) from queueing behind a long one.
 */
const SENTENCE_BATCH = 8
/** The built-in word model takes ~15 µs a text: a batch is one write transaction's worth. */
const WORDS_BATCH = 512
/** Batches per job; the rest continue in a new job so one run never outlives its lease. */
const BATCHES_PER_JOB = 16
/**
 * How far back (in units) the turn before an episode is looked for: a flow's first turn, or
 * one long after the last, is read alone rather than after a scan of the whole memory.
 */
const CONTEXT_REACH = 500
/** How much of the turn before an episode is read with it: its last characters, up to this many. */
const CONTEXT_CHARS = 600
/** Text sent per unit: embedding models read a few thousand tokens at most. */
const MAX_CHARS = 4000

/** One vector per text; null for a text the model found nothing to read in (the word model on Japanese). */
export type EmbedTexts = (texts: string[]) => Promise<Array<number[] | null>>

/**
 * Brings the persona's model vectors up to date: every unit whose text changed since its
 * vector was written (new episodes, facts, summaries, edits) is embedded by the model, in
 * batches. Idempotent: a unit embedded twice just has its vector replaced.
 */
export async function embedWithModel(model: string, ctx: MemoryJobContext): Promise<void> {
  const done = await embedDirty(ctx.store, model, embedderFor(model, ctx), BATCHES_PER_JOB)
  if (!done) ctx.enqueue('embed', { model })
}

function embedderFor(model: string, ctx: MemoryJobContext): EmbedTexts {
  if (isSentenceModel(model)) return (texts) => embedSentences(texts)
  if (isWordsModel(model)) return (texts) => Promise.resolve(embedWords(texts))
  const ref = parseModelRef(model)
  const connector = ctx.llm.connector(ref.provider)
  return (input) => connector.embed({ model: ref.model, input, signal: ctx.signal })
}

/**
 * Embeds up to `batches` batches of stale units with `embed` and stores the vectors. True when
 * nothing stale is left.
 */
export async function embedDirty(
  store: MemoryStore,
  model: string,
  embed: EmbedTexts,
  batches = Infinity,
): Promise<boolean> {
  const size = isSentenceModel(model) ? SENTENCE_BATCH : isWordsModel(model) ? WORDS_BATCH : BATCH
  embedAllFor(store.db, model)
  for (let batch = 0; batch < batches; batch++) {
    const units = takeDirty(store.db, size)
    if (units.length === 0) return true
    // An empty input is refused by some providers; a unit always has at least its kind's label.
    const read = units.map((u) => {
      const unit = store.requireUnit(u.id)
      // Sentences from the built-in sentence model only: it is local and free (a provider would
      // be paid for each turn twice over). The word model's added nothing: on LoCoMo 0–2 its
      // sentences' ranking at weight 0, 0.25 and 0.5 gave 0.891, at 0.75 0.888, at 1 (the
      // sentence model's) 0.883, the synthetic set 0.926 throughout; so it keeps none.
      const sentences = isSentenceModel(model) && unit.kind === UnitKind.EPISODE ? sentencesOf(store.text(unit)) : []
      return { whole: embeddingText(store, unit) || '-', sentences }
    })
    const input = read.flatMap((r) => [r.whole, ...r.sentences])
    const vectors: Array<number[] | null> = []
    // At most a batch of texts a call, sentences included (see SENTENCE_BATCH).
    for (let i = 0; i < input.length; i += size) vectors.push(...(await embed(input.slice(i, i + size))))
    if (vectors.length !== input.length)
      throw new Error(`the embedding model ${model} answered ${vectors.length} vectors for ${input.length} texts`)
    let at = 0
    writeModelVectors(
      store.db,
      model,
      units.map((u, i) => {
        const vector = vectors[at++] ?? null
        const sentences = read[i]!.sentences.map(() => vectors[at++] ?? null)
        return { ...u, vector, ...(sentences.length > 0 ? { sentences } : {}) }
      }),
    )
  }
  return !hasDirty(store.db)
}

/**
 * What the model reads for a unit. An episode is read after the one before it in its
 * conversation (same flow, same source): a turn often makes sense only beside the line it
 * answers ("Yes, last Saturday!"). With the built-in sentence model, turns read so lifted LoCoMo
 * evidence recall on conversations 0–2 from 0.839 to 0.852, the tuning unchanged. The one
 * before is taken by id, so after a retry it may be the other fork's turn; a near miss.
 */
export function embeddingText(store: MemoryStore, unit: UnitRow): string {
  const text = store.text(unit).slice(0, MAX_CHARS)
  // The end of the turn before is context, not content: a long one must not crowd the turn
  // itself out of what a model reads (the sentence model reads its first 2,000 characters).
  const room = Math.min(CONTEXT_CHARS, MAX_CHARS - text.length - 1)
  if (unit.kind !== UnitKind.EPISODE || room <= 0) return text
  // `+kind`: by the id range, never the kind's index. SQLite chose that index, which reads every
  // episode of the memory for each unit (0.7 ms a unit at 5k units; the 1M-unit bench's
  // catch-up took ~5 ms a unit, growing with the memory); by id it is a few rows back.
  const before = store
    .prepare(
      `SELECT * FROM units WHERE id < ? AND id >= ? AND +kind = ${UnitKind.EPISODE} AND origin_flow_id IS ?
       AND source IS ? ORDER BY id DESC LIMIT 1`,
    )
    .get(unit.id, unit.id - CONTEXT_REACH, unit.origin_flow_id, unit.source) as UnitRow | undefined
  return before ? `${store.text(before).slice(-room)}\n${text}` : text
}

/**
 * An episode's sentences as the model reads them one at a time, each after its line's speaker
 * ("Melanie: I'm off to go swimming with the kids."): a question that matches one sentence of a
 * long turn is far nearer to it than to the whole turn. Fragments of under three words are
 * left out; a turn of one sentence is read whole. With the built-in sentence model, searching
 * these beside the turns lifted LoCoMo evidence recall on conversations 0–2 from 0.852 to 0.863,
 * and to 0.869 with the weights set anew (tuning.ts sentenceWeight).
 */
export function sentencesOf(text: string): string[] {
  const whole = text.slice(0, MAX_CHARS)
  const out: string[] = []
  for (const line of whole.split('\n')) {
    const { speaker, sentences } = speakerSentences(line)
    for (const part of sentences)
      if (part.split(/\s+/).length >= 3) out.push(speaker !== null ? `${speaker}: ${part}` : part)
  }
  return out.length <= 1 ? [whole] : out.slice(0, SENTENCES_KEPT)
}
