import { LRUCache } from 'lru-cache'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

/** Texts up to this long are remembered with their count; longer ones are rare and counted each time. */
const CACHED_CHARS = 4000
const counted = new LRUCache<string, number>({ max: 20_000 })

/**
 * Tokens as OpenAI's o200k encoding counts them. Other models count differently: a chat model's
 * budget is corrected by the ratio learned from the usage it reports (llm/tokenCalibration).
 *
 * Every turn counts the same summaries, sheets and turns as the last one did: counts of short
 * texts are kept (least recently used first out), which took a 300-turn context from ~12 ms
 * of tokenizing to a lookup per part.
 */
export function tokenCount(text: string): number {
  if (!text) return 0
  if (text.length > CACHED_CHARS) return countTokens(text)
  let n = counted.get(text)
  if (n === undefined) counted.set(text, (n = countTokens(text)))
  return n
}
