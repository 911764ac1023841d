import { LRUCache } from 'lru-cache'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

/**
 * Counts kept, least recently used first out, within this many characters of text: a long text
 * is usually counted twice in a row (a MemoryPack by its builder, then by the context it goes in).
 * A pack is new every turn and never counted again after: at 8,000,000 characters the two caches
 * kept ~1,000 turns' packs, the host's heap growing ~7 KB a turn until they were full.
 */
const CACHED_CHARS = 2_000_000
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

/**
 * tokenCount(lines.join('\n')), from each line's own count (kept, as above): a MemoryPack is
 * ~50 lines of which a turn adds one or two, and counting the whole pack afresh was a tenth
 * of it. o200k's pre-tokenizer never joins text from both sides of a single line break (the
 * break ends the piece before it, or is a piece of its own) and BPE merges only within a
 * piece, so the counts add up; tokens.test.ts holds this on random lines. The exceptions are
 * counted whole: a line holding a line break or only white space (breaks would run together),
 * or one starting with "/" (a piece of punctuation takes the breaks and slashes after it).
 */
export function tokenCountOfLines(lines: readonly string[]): number {
  const whole = () => tokenCount(lines.join('\n'))
  let n = 0
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!
    // A line that cannot be counted on its own is known by its kept count (-1): a pack's ~50
    // lines of up to 700 characters were each scanned for breaks on every count.
    const count = lineCount(line)
    if (count < 0 || (i > 0 && line.startsWith('/'))) return whole()
    n += count
  }
  const last = lines.at(-1) ?? ''
  if (lines.length > 0 && (!alone(last) || (lines.length > 1 && last.startsWith('/')))) return whole()
  return n + tokenCount(last)
}

/** Whether a line's count adds up with its neighbours' (tokenCountOfLines): no break in it, not only white space. */
function alone(line: string): boolean {
  return !/[\r\n]/.test(line) && line.trim() !== ''
}

/**
 * Counts of `line + '\n'`, kept by the line itself: a pack's lines are the same strings pack
 * after pack, and building `line + '\n'` to look it up made ~50 new strings of a few hundred
 * characters a pack.
 */
const lineCounts = new LRUCache<string, number>({
  max: 50_000,
  maxSize: CACHED_CHARS,
  sizeCalculation: (_count, line) => Math.max(1, line.length),
})

/** The count of `line + '\n'`; -1 for a line not counted alone (see alone()). */
function lineCount(line: string): number {
  let n = lineCounts.get(line)
  if (n === undefined) lineCounts.set(line, (n = alone(line) ? countTokens(`${line}\n`) : -1))
  return n
}

/**
 * lines.join('\n'), its count kept as tokenCountOfLines makes it: the pack's text is counted
 * again by the context it goes in, and counting ~2,000 new tokens there cost ~0.3 ms a turn.
 * `count`: tokenCountOfLines(lines), when the caller has it already.
 */
export function joinCounted(lines: readonly string[], count?: number): string {
  const text = lines.join('\n')
  if (text && !counted.has(text)) counted.set(text, count ?? tokenCountOfLines(lines))
  return text
}
