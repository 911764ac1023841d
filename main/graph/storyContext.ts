import type { ContextPart, ContextPreview, Node } from '@shared/contract'
import type { Language } from '../kernel/language'
import { tokenCount } from '../kernel/tokens'
import {
  clippedTurns,
  contextText,
  fitParents,
  fitPlaced,
  pairText,
  parentsInOrder,
  placeAtDepth,
  pushTurn,
  sum,
  type PlacedPart,
} from './context'

/** What story mode puts in a context (NovelADV seed ④), built by the story domain. */
export interface StoryContext {
  /** World, player, characters and the AI's rules, in that order (kind `scenario`, tokens counted). */
  scenario: ContextPart[]
  /** The story so far that holds on this branch. */
  summary: string | null
  /** The newest turn folded into that summary: it and everything before it stay out of the history. */
  coveredNodeId: string | null
}

export interface StoryContextInput {
  flowId: string
  systemPrompt: string
  parentIds: readonly string[]
  prompt: string
  budget: number
  language: Language
  memory?: string | null
  story: StoryContext
  node: (id: string) => Node
  isMember: (id: string) => boolean
  parentsOf: (id: string) => string[]
  /** Lorebook entries and the Author's Note, placed as in a plain conversation (see buildContext). */
  placed?: readonly PlacedPart[]
}

/**
 * Story mode's context (NovelADV seed ④): the scenario (world, player, every character sheet,
 * the AI's rules), the MemoryPack and the story so far valid on this branch in the system
 * message; then the turns since that summary word for word, newest first until the budget is
 * spent; then the parent(s) and the prompt. The turns are found by walking up from the parents,
 * so the cost is the turns that fit, not the length of the path: a 5,000-turn story costs what
 * a 50-turn one does.
 */
export function buildStoryContext(input: StoryContextInput): ContextPreview {
  const t = contextText[input.language]
  const { story, node } = input
  const parents = parentsInOrder(input, input.flowId, input.isMember)
  const part = (kind: ContextPart['kind'], nodeId: string | null, body: string): ContextPart => ({
    kind,
    node_id: nodeId,
    text: body,
    tokens: tokenCount(body),
  })
  const systemPart = part('system', null, input.systemPrompt.trim() || t.system)
  const prompt = part('prompt', null, input.prompt)
  let used = sum([systemPart, ...story.scenario, prompt])
  const placed = fitPlaced(input.placed, input.budget - used)
  used += placed.tokens
  const fixed = [...placed.around(systemPart), ...story.scenario]
  const memory = input.memory ? part('memory', null, input.memory) : null
  const memoryIn = memory && used + memory.tokens <= input.budget ? [memory] : []
  used += sum(memoryIn)
  const summaryText = story.summary?.trim()
  const summary = summaryText ? part('story_summary', null, `${t.storySoFar}\n${summaryText}`) : null
  const summaryIn = summary && used + summary.tokens <= input.budget ? [summary] : []
  used += sum(summaryIn)

  const parentParts = parents.map((id) => part('parent', id, pairText(node(id))))
  const parentsIn = fitParents(parentParts, Math.max(0, input.budget - used), t.clipped)
  used += sum(parentsIn)

  const recentParts: ContextPart[] = []
  // Only the newest turn left out is named: naming every older one would mean walking the whole path.
  const dropped: string[] = []
  for (const id of newestFirst(parents, input, story.coveredNodeId)) {
    const p = part('recent_turn', id, pairText(node(id)))
    if (used + p.tokens > input.budget) {
      dropped.push(id)
      break // older turns than one that does not fit stay out too: the history has no holes
    }
    recentParts.unshift(p)
    used += p.tokens
  }

  const parts = [
    ...fixed,
    ...memoryIn,
    ...summaryIn,
    ...recentParts,
    ...parentsIn,
    ...placed.atDepth.map((p) => p.part),
    prompt,
  ]
  const system = [...fixed, ...memoryIn, ...summaryIn].map((p) => p.text).join('\n\n')
  const messages: ContextPreview['messages'] = [{ role: 'system', content: system }]
  for (const p of recentParts) pushTurn(messages, node(p.node_id!))
  parentsIn.forEach((p, i) => {
    const n = node(parents[i]!)
    const turns = p === parentParts[i] ? n : clippedTurns(n, p.text, t.clipped)
    if (turns) pushTurn(messages, turns)
  })
  messages.push({ role: 'user', content: input.prompt })
  placeAtDepth(messages, placed.atDepth)
  return { parts, total_tokens: sum(parts), budget: input.budget, dropped_node_ids: dropped, messages }
}

/**
 * The ancestors of the parents, newest first (across every branch of a merge), down to the
 * turn the summary covers: neither it nor anything older is yielded.
 */
function* newestFirst(
  parents: readonly string[],
  graph: Pick<StoryContextInput, 'node' | 'parentsOf'>,
  coveredNodeId: string | null,
): Generator<string> {
  const time = (id: string) => graph.node(id).timestamp
  const coveredAt = coveredNodeId ? time(coveredNodeId) : null
  const seen = new Set(parents)
  const frontier: Array<{ id: string; at: string }> = []
  const add = (id: string) => {
    if (seen.has(id)) return
    seen.add(id)
    if (id === coveredNodeId) return
    const at = time(id)
    if (coveredAt !== null && at <= coveredAt) return
    frontier.push({ id, at })
  }
  for (const p of parents) for (const up of graph.parentsOf(p)) add(up)
  while (frontier.length > 0) {
    frontier.sort((a, b) => a.at.localeCompare(b.at))
    const { id } = frontier.pop()!
    yield id
    for (const up of graph.parentsOf(id)) add(up)
  }
}
