import type { FlowSummary } from '@shared/contract'

/** Folded for matching: case, width (Ｋｙｏｔｏ = Kyoto) and kana-compatibility forms alike. */
export function fold(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase()
}

/**
 * The conversations whose name or persona's name holds every word of `query`, in the order
 * given (pinned first, then by activity, as the host lists them).
 */
export function filterConversations(
  flows: readonly FlowSummary[],
  query: string,
  personaName: (personaId: string | null) => string,
): readonly FlowSummary[] {
  const words = fold(query).split(/\s+/).filter(Boolean)
  if (words.length === 0) return flows
  return flows.filter((f) => {
    const text = fold(`${f.name}\n${personaName(f.persona_id)}`)
    return words.every((w) => text.includes(w))
  })
}
