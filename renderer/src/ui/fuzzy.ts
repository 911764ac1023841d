/**
 * How well `query` matches `text`, or null when it does not: every character of the query in
 * order (case- and width-insensitive), scored higher for a match at the start, at word starts
 * and in one run. An empty query matches everything with score 0.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = fold(query).replace(/\s+/g, '')
  if (!q) return 0
  const t = fold(text)
  const direct = t.indexOf(q)
  if (direct >= 0)
    return 1000 - direct * 2 + (direct === 0 || /[\s\-_:/]/.test(t[direct - 1]!) ? 200 : 0) - t.length / 100
  let score = 0
  let at = 0
  let run = 0
  for (const ch of q) {
    const found = t.indexOf(ch, at)
    if (found < 0) return null
    run = found === at ? run + 1 : 0
    const wordStart = found === 0 || /[\s\-_:/]/.test(t[found - 1]!)
    score += 10 + run * 5 + (wordStart ? 15 : 0) - Math.min(found - at, 10)
    at = found + 1
  }
  return score - t.length / 100
}

/** The items matching `query`, best first (ties keep their order). */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string): T[] {
  if (!query.trim()) return [...items]
  return items
    .map((item, i) => ({ item, i, score: fuzzyScore(query, text(item)) }))
    .filter((m): m is { item: T; i: number; score: number } => m.score !== null)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((m) => m.item)
}

function fold(s: string): string {
  return s.normalize('NFKC').toLowerCase()
}
