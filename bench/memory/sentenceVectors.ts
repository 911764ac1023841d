import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { embedDirty } from '../../main/memory/embedJob'
import { embedSentences, SENTENCE_MODEL } from '../../main/memory/sentenceModel'
import type { MemoryStore } from '../../main/memory/store'

// The built-in sentence model's vectors for the recall bench: the memory's units embedded the
// way the app's embed job does (embedDirty), and each question as a query. The model is
// deterministic, so vectors are kept in a file in the temp folder between runs (a first run
// embeds ~3,000 LoCoMo turns: a minute or two on two cores).

const cachePath = join(tmpdir(), 'loomverse-sentence-vectors.json')
const cache: Record<string, number[]> = existsSync(cachePath)
  ? (JSON.parse(readFileSync(cachePath, 'utf8')) as Record<string, number[]>)
  : {}
const key = (text: string) => createHash('sha1').update(text).digest('base64')

export async function sentenceVectors(texts: string[]): Promise<number[][]> {
  const missing = [...new Set(texts.filter((t) => !cache[key(t)]))]
  for (let i = 0; i < missing.length; i += 32) {
    const batch = missing.slice(i, i + 32)
    const vectors = await embedSentences(batch)
    batch.forEach((t, j) => (cache[key(t)] = vectors[j]!))
  }
  if (missing.length > 0) writeFileSync(cachePath, JSON.stringify(cache))
  return texts.map((t) => cache[key(t)]!)
}

/** Every searchable unit of the store gets its sentence vector, as the embed job writes it. */
export async function embedStore(store: MemoryStore): Promise<void> {
  await embedDirty(store, SENTENCE_MODEL, sentenceVectors)
}
