import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { embedDirty } from '../../main/memory/jobs/embedJob'
import { embedSentences, SENTENCE_MODEL } from '../../main/memory/retrieval/sentenceModel'
import type { MemoryStore } from '../../main/memory/store/store'

// The built-in sentence model's vectors for the recall bench: the memory's units embedded the
// way the app's embed job does (embedDirty), and each question as a query. The model is
// deterministic, so vectors are kept in a file in the temp folder between runs (a first run
// embeds ~3,000 LoCoMo turns: a minute or two on two cores).

const cachePath = join(tmpdir(), 'loomverse-sentence-vectors.json')
const cache: Record<string, number[]> = existsSync(cachePath)
  ? (JSON.parse(readFileSync(cachePath, 'utf8')) as Record<string, number[]>)
  : {}
const key = (text: string) => createHash('sha1').update(text).digest('base64')

async function sentenceVectors(texts: string[]): Promise<number[][]> {
  const missing = [...new Set(texts.filter((t) => !cache[key(t)]))]
  for (let i = 0; i < missing.length; i += 32) {
    const batch = missing.slice(i, i + 32)
    const vectors = await embedSentences(batch)
    batch.forEach((t, j) => (cache[key(t)] = vectors[j]!))
  }
  if (missing.length > 0) unsaved = true
  return texts.map((t) => cache[key(t)]!)
}

/** Whether the cache holds vectors its file does not yet. */
let unsaved = false

/** Writes the cache's file (~160 MB of JSON: once per store, not once per call of a few texts). */
function save(): void {
  if (!unsaved) return
  writeFileSync(cachePath, JSON.stringify(cache))
  unsaved = false
}

/** Every searchable unit of the store gets its sentence vector (and its sentences'), as the embed job writes them. */
export async function embedStore(store: MemoryStore): Promise<void> {
  await embedDirty(store, SENTENCE_MODEL, sentenceVectors)
  save()
}

/** The questions' vectors, the cache saved once they are all made. */
export async function questionVectors(texts: string[]): Promise<number[][]> {
  const vectors = await sentenceVectors(texts)
  save()
  return vectors
}
