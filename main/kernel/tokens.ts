import { LRUCache } from 'lru-cache'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

/**
 * Counts kept, least recently used first out, within this many characters of text: a long text
 * is usually counted twice in a row (a MemoryPack by its builder, then by the context it goes in).
 */
const CACHED_CHARS = 8_000_000
const counted = new LRUCache<string, number>({
  max: 50_000,
  maxSize: CACHED_CHARS,
  sizeCalculation: (_count, text) => text.length,
})

/**
 * Tokens as OpenAI's o200k encoding counts them. Other models count differently: a chat model's
 * budget is corrected by the ratio learned from the usage it reports (llm/tokenCalibration).
 *
 * Every turn counts the same summaries, sheets and turns as the last one did: their counts
 * are kept (least recently used first out), which took a 300-turn context from ~12 ms
 * of tokenizing to a lookup per part.
 */
export function tokenCount(text: string): number {
  if (!text) return 0
  let n = counted.get(text)
  if (n === undefined) counted.set(text, (n = countTokens(text)))
  return n
}
