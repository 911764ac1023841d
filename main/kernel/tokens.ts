import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

/** Texts up to this long are remembered with their count; longer ones are rare and counted each time. */
const CACHED_CHARS = 4000
const CACHE_SIZE = 20_000
const counted = new Map<string, number>()

/**
 * Tokens as OpenAI's o200k encoding counts them. Other providers count a little differently;
 * budgets leave headroom for that. One function so a per-model tokenizer can replace it later.
 *
 * Every turn counts the same summaries, sheets and turns as the last one did: counts of short
 * texts are kept (most recently used first out), which took a 300-turn context from ~12 ms
 * of tokenizing to a lookup per part.
 */
export function tokenCount(text: string): number {
  if (!text) return 0
  if (text.length > CACHED_CHARS) return countTokens(text)
  const hit = counted.get(text)
  if (hit !== undefined) {
    // Refreshed as most recently used: Map keeps insertion order.
    counted.delete(text)
    counted.set(text, hit)
    return hit
  }
  const n = countTokens(text)
  if (counted.size >= CACHE_SIZE) counted.delete(counted.keys().next().value!)
  counted.set(text, n)
  return n
}
