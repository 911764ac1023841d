import type { Connection, ContextPart, ContextPreview, Node } from '@shared/contract'
import { AppError } from '@shared/errors'
import { activePath, topologicalOrder } from './dag'
import type { Language } from '../kernel/language'
import type { KeptLines } from './ancestorLines'
import { pathPrefix, type PathMembers, type PathOrder } from './ancestry'
import { clipFlattened } from '../kernel/clipText'
import { tokenCount } from '../kernel/tokens'

/** The flow as a context reads it (GraphService.contextFlow). */
export interface ContextFlow {
  id: string
  system_prompt: string
  /**
   * Every connection into the parents and their ancestors (more does no harm); asked for only
   * below a merge: a single parent's history is `pathTo`'s, and copying 20,000 edges a prompt
   * to leave them unread cost milliseconds.
   */
  connections: () => readonly Connection[]
  /**
   * A node's active path, oldest first, the node itself last (as dag.activePath orders it), and
   * the same nodes as a set, when the flow keeps them at hand: a single parent's history then
   * needs no walk of the connections, nor a set made of 20,000 ids a prompt.
   */
  pathTo?: (nodeId: string) => { order: PathOrder; members: PathMembers }
  /** The flow's pinned nodes, in the order of their indexes. */
  pinned: readonly string[]
  isMember: (id: string) => boolean
  /** The ancestors' lines built for earlier prompts, when the flow keeps them (null or absent: each is built). */
  lines?: KeptLines | null
}

export interface ContextInput {
  flow: ContextFlow
  node: (id: string) => Node
  parentIds: readonly string[]
  prompt: string
  budget: number
  language: Language
  /**
   * What the persona remembers for this prompt (a MemoryPack sized to `memoryShare`): it goes in
   * the system message and counts against the budget like everything else, before the history.
   */
  memory?: string | null
  /** Reads these nodes ahead in one go (the newest ancestors, which the context will show). */
  prefetch?: (ids: readonly string[]) => void
  /**
   * Parts placed by another domain (lorebook entries, the Author's Note), in order: around the
   * system text, or among the messages. Counted against the budget after memory, each left out
   * whole when it does not fit.
   */
  placed?: readonly PlacedPart[]
  /** A group scene: every reply says who spoke it, as the member answering now reads them. */
  scene?: SceneVoices | null
}

/** How a member of a group scene reads the conversation (built by chat/groupScene.ts). */
export interface SceneVoices {
  /** Who spoke a node's reply: the member answering now (its own words), or another, by name; null when nobody is known. */
  voiceOf: (n: Node) => { own: boolean; name: string } | null
  /** The last message of a turn with no prompt (another member goes on): whose turn it is. */
  nudge: string
}

export interface PlacedPart {
  part: ContextPart
  /** Before or after the system text (the persona), or a message `part.depth` messages from the end. */
  place: 'before_system' | 'after_system' | 'at_depth'
  role?: 'system' | 'user' | 'assistant'
}

export const contextText = {
  ja: {
    system: 'あなたは役に立つアシスタントです。',
    instructions: '以下の情報を参照して回答してください。',
    history: '会話の流れ（古い順の要約）:',
    references: '参照情報:',
    details: '詳細情報が必要な場合は「[ノードID]の詳細を知りたい」と指示できます。',
    clipped: '（前半を省略）',
    storySoFar: 'これまでのあらすじ:',
  },
  en: {
    system: 'You are a helpful assistant.',
    instructions: 'Use the information below when you answer.',
    history: 'The conversation so far (summaries, oldest first):',
    references: 'References:',
    details: 'If you need the details of a node, say "[node id] details".',
    clipped: '(beginning omitted)',
    storySoFar: 'The story so far:',
  },
} as const

/** Ancestors read ahead of the summary lines: more than a usual budget shows. */
const PREFETCH = 256

/** Ancestors without a built summary stand in with the start of their text. */
const FALLBACK_CHARS = 240

/**
 * Builds what the model sees for a new prompt (VizPrompt seed §7.3): the system prompt,
 * summaries of older ancestors on the active path, the direct parent(s) in full, the flow's
 * pinned reference nodes (summary + tags), and the note that details can be asked for.
 * Within the token budget the prompt, system text and parents always go in (a parent too
 * long for the budget keeps its end); then pins; then ancestors, newest first, until one
 * does not fit.
 */
export function buildContext(input: ContextInput): ContextPreview {
  const t = contextText[input.language]
  const { flow, node } = input
  const timestamp = (id: string) => node(id).timestamp
  const parents = parentsInOrder(input, flow.id, flow.isMember)
  const { onPath, ordered } = ancestorsOf(flow, parents, timestamp)
  const references = flow.pinned.filter((id) => !onPath.has(id))

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
  const scene = input.scene ?? null
  // A member asked to go on without a word from the user is told whose turn it is.
  const promptText = scene && !input.prompt.trim() ? scene.nudge : input.prompt
  const prompt = part('prompt', null, promptText)
  let used = sum([...fixed, note, prompt])
  // Memory comes before the history; a pack with no room left beside the prompt stays out whole.
  const memory = input.memory ? part('memory', null, input.memory) : null
  const memoryIn = memory && used + memory.tokens <= input.budget ? [memory] : []
  used += sum(memoryIn)
  const placed = fitPlaced(input.placed, input.budget - used)
  used += placed.tokens
  const [systemPart, instructions] = fixed as [ContextPart, ContextPart]
  const aroundSystem = [...placed.around(systemPart), instructions]
  const atDepth = placed.atDepth

  const parentParts = parents.map((id) => part('parent', id, pairText(node(id))))
  const parentsIn = fitParents(parentParts, Math.max(0, input.budget - used), t.clipped)
  used += sum(parentsIn)

  const droppedReferences: string[] = []
  const referenceParts: ContextPart[] = []
  for (const id of references) {
    const p = part('reference', id, referenceLine(node(id)))
    if (used + p.tokens <= input.budget) {
      referenceParts.push(p)
      used += p.tokens
    } else droppedReferences.push(id)
  }
  // Newest first is the order they are read in; a budget rarely holds more than a few hundred.
  // A scene's lines name their speakers, which the kept (unnamed) lines do not: built afresh.
  const lines = scene ? null : (flow.lines ?? null)
  input.prefetch?.(ordered.slice(-PREFETCH).filter((id) => !lines?.get(id)))
  const ancestorPart = (id: string): ContextPart => {
    const kept = lines?.get(id)
    if (kept) return { kind: 'ancestor_summary', node_id: id, text: kept.text, tokens: kept.tokens }
    const p = part('ancestor_summary', id, summaryLine(node(id), scene))
    lines?.set(id, { text: p.text, tokens: p.tokens })
    return p
  }
  const newestFirst: ContextPart[] = []
  // Newest first until one does not fit; every older one goes too, so the history has no holes.
  let taken = 0
  for (let i = ordered.length - 1; i >= 0; i--) {
    const p = ancestorPart(ordered.at(i)!)
    if (used + p.tokens > input.budget) break
    newestFirst.push(p)
    used += p.tokens
    taken++
  }
  const ancestorParts = newestFirst.reverse()
  // The older ones are not read or counted. One slice, oldest first: dropping them one by one
  // to the front of a list was quadratic: 130-260 ms a prompt at 20,000 turns on a busy 2-core machine.
  const dropped = [...ordered.slice(0, ordered.length - taken), ...droppedReferences]

  const parts = [
    ...aroundSystem,
    ...memoryIn,
    ...ancestorParts,
    ...parentsIn,
    ...referenceParts,
    note,
    ...atDepth.map((p) => p.part),
    prompt,
  ]
  const system = [
    aroundSystem.map((p) => p.text).join('\n\n'),
    ...memoryIn.map((p) => p.text),
    ancestorParts.length > 0 ? `${t.history}\n${ancestorParts.map((p) => p.text).join('\n')}` : '',
    referenceParts.length > 0 ? `${t.references}\n${referenceParts.map((p) => p.text).join('\n')}` : '',
    note.text,
  ]
    .filter(Boolean)
    .join('\n\n')
  const messages: ContextPreview['messages'] = [{ role: 'system', content: system }]
  parentsIn.forEach((p, i) => {
    const n = node(parents[i]!)
    const turns = p === parentParts[i] ? n : clippedTurns(n, p.text, t.clipped)
    if (!turns) return
    if (!scene) return pushTurn(messages, turns)
    // In a scene a greeting or a member going on has no prompt: no empty message stands for it.
    if (turns.prompt) messages.push({ role: 'user', content: turns.prompt })
    if (turns.response) messages.push(sceneReply(n, turns.response, scene))
  })
  messages.push({ role: 'user', content: promptText })
  placeAtDepth(messages, atDepth)

  return { parts, total_tokens: sum(parts), budget: input.budget, dropped_node_ids: dropped, messages }
}

/**
 * The placed parts that fit in `room` tokens, in order (each left out whole when it does not):
 * those around the system text, and those among the messages.
 */
export function fitPlaced(placed: readonly PlacedPart[] | undefined, room: number) {
  const kept: PlacedPart[] = []
  let tokens = 0
  for (const p of placed ?? []) {
    if (tokens + p.part.tokens > room) continue
    kept.push(p)
    tokens += p.part.tokens
  }
  const at = (place: PlacedPart['place']) => kept.filter((p) => p.place === place)
  return {
    tokens,
    around: (system: ContextPart) => [
      ...at('before_system').map((p) => p.part),
      system,
      ...at('after_system').map((p) => p.part),
    ],
    atDepth: at('at_depth'),
  }
}

/**
 * Puts each part `depth` messages from the end (0: after the prompt, as SillyTavern's depth 0),
 * never above the system message; parts at one depth keep their order.
 */
export function placeAtDepth(messages: ContextPreview['messages'], parts: readonly PlacedPart[]): void {
  const deepestFirst = [...parts].sort((a, b) => (b.part.depth ?? 0) - (a.part.depth ?? 0))
  for (const p of deepestFirst) {
    const at = Math.max(1, messages.length - (p.part.depth ?? 0))
    messages.splice(at, 0, { role: p.role ?? 'system', content: p.part.text })
  }
}

/** Parents go in whole when they fit `room`; otherwise each keeps its end, which is what the reply continues from. */
export function fitParents(parentParts: ContextPart[], room: number, marker: string): ContextPart[] {
  const tokens = sum(parentParts)
  return tokens <= room
    ? parentParts
    : parentParts.map((p) => clipToTokens(p, Math.floor((room * p.tokens) / tokens), marker))
}

/** The parents by time; as create_node does, a node of another flow is refused: its text must not leak in. */
export function parentsInOrder(
  input: Pick<ContextInput, 'node' | 'parentIds'>,
  flowId: string,
  isMember: (id: string) => boolean,
): string[] {
  const timestamp = (id: string) => input.node(id).timestamp
  const parents = [...new Set(input.parentIds)].sort((a, b) => timestamp(a).localeCompare(timestamp(b)))
  for (const id of parents) {
    if (!isMember(id)) throw new AppError('not_found', `parent node ${id} is not in flow ${flowId}`)
  }
  return parents
}

/**
 * Every node on the active paths of the parents (themselves included), and the ancestors without
 * the parents, oldest first across every branch of a merge, in the order the conversation happened.
 */
function ancestorsOf(
  flow: ContextFlow,
  parents: readonly string[],
  timestamp: (id: string) => string,
): { onPath: PathMembers; ordered: PathOrder } {
  if (parents.length === 1 && flow.pathTo) {
    // The parent is the last of its path: the rest are its ancestors in order, read only as far
    // as the budget goes (a view, not a copy of 20,000 ids).
    const path = flow.pathTo(parents[0]!)
    return { onPath: path.members, ordered: pathPrefix(path.order, Math.max(0, path.order.length - 1)) }
  }
  const connections = flow.connections()
  const onPath = pathThrough(connections, parents, timestamp)
  const ordered = topologicalOrder(new Set([...onPath].filter((id) => !parents.includes(id))), connections, timestamp)
  return { onPath, ordered }
}

/** Every node on the active paths of the parents, themselves included. */
function pathThrough(
  connections: readonly Connection[],
  parents: readonly string[],
  timestamp: (id: string) => string,
): Set<string> {
  const onPath = new Set<string>()
  for (const p of parents) for (const id of activePath(connections, p, timestamp)) onPath.add(id)
  return onPath
}

export function pushTurn(messages: ContextPreview['messages'], turn: { prompt: string; response: string }): void {
  messages.push({ role: 'user', content: turn.prompt })
  if (turn.response) messages.push({ role: 'assistant', content: turn.response })
}

export const SEPARATOR = '\n\n'

export function pairText(n: Node): string {
  return n.response ? `${n.prompt}${SEPARATOR}${n.response}` : n.prompt
}

/**
 * A clipped parent split back into its two turns, so the messages hold only the kept end of
 * `pairText` (the marker, then the end of the prompt if any of it is left, then the response's
 * kept end) and stay within the budget. Null when nothing of the parent fits.
 */
export function clippedTurns(n: Node, clipped: string, marker: string): { prompt: string; response: string } | null {
  if (!clipped) return null
  const kept = clipped.slice(marker.length)
  if (!n.response) return { prompt: clipped, response: '' }
  if (kept.length <= n.response.length) return { prompt: marker, response: kept }
  const promptEnd = kept.slice(0, Math.max(0, kept.length - n.response.length - SEPARATOR.length))
  return { prompt: `${marker}${promptEnd}`, response: n.response }
}

function summaryLine(n: Node, scene: SceneVoices | null): string {
  const name = scene?.voiceOf(n)?.name
  const reply = name && n.response ? `${name}: ${n.response}` : n.response
  const pair = reply ? (n.prompt ? `${n.prompt} → ${reply}` : reply) : n.prompt
  const built = n.metadata.summary.text.trim()
  const summary = built ? (name ? `(${name}) ${built}` : built) : clippedFlat(pair, FALLBACK_CHARS)
  return `[${n.id}] ${summary}`
}

/** A reply as the member answering now reads it: its own as the assistant's, another's as said to it, by name. */
function sceneReply(n: Node, text: string, scene: SceneVoices): ContextPreview['messages'][number] {
  const voice = scene.voiceOf(n)
  if (!voice || voice.own) return { role: 'assistant', content: text }
  return { role: 'user', content: `${voice.name}: ${text}` }
}

function referenceLine(n: Node): string {
  const tags = n.metadata.tags.map((tag) => `#${tag}`).join(' ')
  const summary = n.metadata.summary.text.trim() || clippedFlat(n.prompt, FALLBACK_CHARS)
  return `[${n.id}]: ${summary}${tags ? ` [${tags}]` : ''}`
}

/**
 * The text on one line (each run of white space one space), cut after `n` characters with "…",
 * flattening only the start the cut needs (kernel/clipText.ts): every context lists up to a few
 * hundred ancestors, and flattening each whole turn (a few KB of reply) cost ~3 ms a context.
 */
export function clippedFlat(text: string, n: number): string {
  return clipFlattened(text, n, (start) => start.replace(/\s+/g, ' '))
}

/** Keeps the end of a part within `max` tokens. */
export function clipToTokens(p: ContextPart, max: number, marker: string): ContextPart {
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

export function sum(parts: ContextPart[]): number {
  return parts.reduce((a, p) => a + p.tokens, 0)
}
