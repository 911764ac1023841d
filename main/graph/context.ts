import type { ContextPart, ContextPreview, Flow, Node } from '@shared/contract'
import { activePath } from './dag'
import { tokenCount } from './tokens'

export type ContextLanguage = 'ja' | 'en'

export interface ContextInput {
  flow: Flow
  node: (id: string) => Node
  parentIds: readonly string[]
  prompt: string
  budget: number
  language: ContextLanguage
}

const text = {
  ja: {
    system: 'あなたは役に立つアシスタントです。',
    instructions: '以下の情報を参照して回答してください。',
    history: '会話の流れ（古い順の要約）:',
    references: '参照情報:',
    details: '詳細情報が必要な場合は「[ノードID]の詳細を知りたい」と指示できます。',
    clipped: '（前半を省略）',
  },
  en: {
    system: 'You are a helpful assistant.',
    instructions: 'Use the information below when you answer.',
    history: 'The conversation so far (summaries, oldest first):',
    references: 'References:',
    details: 'If you need the details of a node, say "[node id] details".',
    clipped: '(beginning omitted)',
  },
} as const

/** Ancestors without a built summary stand in with the start of their text. */
const FALLBACK_CHARS = 240

/**
 * Builds what the model sees for a new prompt (VizPrompt seed §7.3): the system prompt,
 * summaries of older ancestors on the active path, the direct parent(s) in full, the flow's
 * pinned reference nodes (summary + tags), and the note that details can be asked for.
 * Within the token budget the prompt, system text and parents always go in (a parent too
 * long for the budget keeps its end); then pins; then ancestors, newest first.
 */
export function buildContext(input: ContextInput): ContextPreview {
  const t = text[input.language]
  const { flow, node } = input
  const timestamp = (id: string) => node(id).timestamp
  const parents = [...new Set(input.parentIds)].sort((a, b) => timestamp(a).localeCompare(timestamp(b)))
  const onPath = new Set<string>()
  for (const p of parents) for (const id of activePath(flow.connections, p, timestamp)) onPath.add(id)
  const ancestors = [...onPath].filter((id) => !parents.includes(id))
  const ordered = orderByPath(flow, parents, ancestors, timestamp)
  const references = flow.nodes.filter((m) => m.pinned && !onPath.has(m.id)).map((m) => m.id)

  const part = (kind: ContextPart['kind'], nodeId: string | null, body: string): ContextPart => ({
    kind,
    node_id: nodeId,
    text: body,
    tokens: tokenCount(body),
  })
  const fixed = [
    part('system', null, flow.system_prompt.trim() || t.system),
    part('instructions', null, t.instructions),
  ]
  const note = part('details_note', null, t.details)
  const prompt = part('prompt', null, input.prompt)
  let used = sum([...fixed, note, prompt])

  // Parents go in whole when they fit; otherwise each keeps its end, which is what the reply continues from.
  const parentParts = parents.map((id) => part('parent', id, pairText(node(id))))
  const parentTokens = sum(parentParts)
  const room = Math.max(0, input.budget - used)
  const parentsIn =
    parentTokens <= room
      ? parentParts
      : parentParts.map((p) => clipToTokens(p, Math.floor((room * p.tokens) / parentTokens), t.clipped))
  used += sum(parentsIn)

  const dropped: string[] = []
  const referenceParts: ContextPart[] = []
  for (const id of references) {
    const p = part('reference', id, referenceLine(node(id)))
    if (used + p.tokens <= input.budget) {
      referenceParts.push(p)
      used += p.tokens
    } else dropped.push(id)
  }
  const ancestorParts: ContextPart[] = []
  for (const id of [...ordered].reverse()) {
    const p = part('ancestor_summary', id, summaryLine(node(id)))
    if (used + p.tokens <= input.budget) {
      ancestorParts.unshift(p)
      used += p.tokens
    } else dropped.unshift(id)
  }

  const parts = [...fixed, ...ancestorParts, ...parentsIn, ...referenceParts, note, prompt]
  const system = [
    fixed.map((p) => p.text).join('\n\n'),
    ancestorParts.length > 0 ? `${t.history}\n${ancestorParts.map((p) => p.text).join('\n')}` : '',
    referenceParts.length > 0 ? `${t.references}\n${referenceParts.map((p) => p.text).join('\n')}` : '',
    note.text,
  ]
    .filter(Boolean)
    .join('\n\n')
  const messages: ContextPreview['messages'] = [{ role: 'system', content: system }]
  parentsIn.forEach((p, i) => {
    const n = node(parents[i]!)
    const clipped = p.text !== parentParts[i]!.text
    messages.push({ role: 'user', content: clipped && !n.response ? p.text : n.prompt })
    if (n.response) messages.push({ role: 'assistant', content: clipped ? p.text : n.response })
  })
  messages.push({ role: 'user', content: input.prompt })

  return { parts, total_tokens: sum(parts), budget: input.budget, dropped_node_ids: dropped, messages }
}

/** Ancestors oldest first: the active-path order of the first parent, then any others of a merge. */
function orderByPath(flow: Flow, parents: string[], ancestors: string[], timestamp: (id: string) => string): string[] {
  const wanted = new Set(ancestors)
  const order: string[] = []
  for (const p of parents)
    for (const id of activePath(flow.connections, p, timestamp))
      if (wanted.has(id) && !order.includes(id)) order.push(id)
  return order
}

function pairText(n: Node): string {
  return n.response ? `${n.prompt}\n\n${n.response}` : n.prompt
}

function summaryLine(n: Node): string {
  const summary =
    n.metadata.summary.text.trim() || clipChars(`${n.prompt} → ${n.response}`.replace(/\s+/g, ' '), FALLBACK_CHARS)
  return `[${n.id}] ${summary}`
}

function referenceLine(n: Node): string {
  const tags = n.metadata.tags.map((tag) => `#${tag}`).join(' ')
  const summary = n.metadata.summary.text.trim() || clipChars(n.prompt.replace(/\s+/g, ' '), FALLBACK_CHARS)
  return `[${n.id}]: ${summary}${tags ? ` [${tags}]` : ''}`
}

function clipChars(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}…` : s
}

/** Keeps the end of a part within `max` tokens. */
function clipToTokens(p: ContextPart, max: number, marker: string): ContextPart {
  if (p.tokens <= max) return p
  if (max <= 0) return { ...p, text: '', tokens: 0 }
  let lo = 0
  let hi = p.text.length
  // Binary search for the longest tail that fits: token counts are monotone in the tail length.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2)
    if (tokenCount(`${marker}${p.text.slice(mid)}`) <= max) hi = mid
    else lo = mid + 1
  }
  const body = `${marker}${p.text.slice(lo)}`
  const tokens = tokenCount(body)
  return tokens <= max ? { ...p, text: body, tokens } : { ...p, text: '', tokens: 0 }
}

function sum(parts: ContextPart[]): number {
  return parts.reduce((a, p) => a + p.tokens, 0)
}
