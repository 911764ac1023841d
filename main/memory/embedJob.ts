import { parseModelRef } from '../llm/models'
import type { MemoryJobContext } from './jobContext'
import { hasDirty, takeDirty, writeModelVectors } from './modelVectors'

/** Units per embedding request: every provider accepts this many inputs at once. */
const BATCH = 64
/** Batches per job; the rest continue in a new job so one run never outlives its lease. */
const BATCHES_PER_JOB = 16
/** Text sent per unit: embedding models read a few thousand tokens at most. */
const MAX_CHARS = 4000

/**
 * Brings the persona's model vectors up to date: every unit whose text changed since its
 * vector was written (new episodes, facts, summaries, edits) is embedded by the model, in
 * batches. Idempotent: a unit embedded twice just has its vector replaced.
 */
export async function embedWithModel(model: string, ctx: MemoryJobContext): Promise<void> {
  const ref = parseModelRef(model)
  const connector = ctx.llm.connector(ref.provider)
  const { store } = ctx
  for (let batch = 0; batch < BATCHES_PER_JOB; batch++) {
    const units = takeDirty(store.db, BATCH)
    if (units.length === 0) return
    // An empty input is refused by some providers; a unit always has at least its kind's label.
    const input = units.map((u) => store.text(store.requireUnit(u.id)).slice(0, MAX_CHARS) || '-')
    const vectors = await connector.embed({ model: ref.model, input, signal: ctx.signal })
    if (vectors.length !== units.length)
      throw new Error(`the embedding model ${model} answered ${vectors.length} vectors for ${units.length} texts`)
    writeModelVectors(
      store.db,
      model,
      units.map((u, i) => ({ ...u, vector: vectors[i]! })),
    )
  }
  if (hasDirty(store.db)) ctx.enqueue('embed', { model })
}
