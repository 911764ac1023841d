import { z } from 'zod'
import { IMPORT_TEXT_MAX, MAX_IMPORT_DEPTH, MAX_IMPORT_FLOW_TEXT, MAX_IMPORT_MESSAGES } from '../../kernel/importLimits'
import { TimeSlices } from '../../kernel/timeSlices'

// ChatGPT's data export (`conversations.json`): an array of conversations, each a tree of
// messages in `mapping` (id → {message, parent, children}). Regenerating an answer adds an
// assistant child beside the first; editing a prompt adds a user child beside the first.

const Message = z
  .object({
    author: z.object({ role: z.string() }).passthrough(),
    create_time: z.number().nullable().optional(),
    content: z
      .object({
        content_type: z.string(),
        parts: z.array(z.unknown()).optional(),
        text: z.string().optional(),
      })
      .passthrough(),
    recipient: z.string().optional(),
    metadata: z
      .object({
        model_slug: z.string().optional(),
        is_visually_hidden_from_conversation: z.boolean().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough()
type Message = z.infer<typeof Message>

/** One entry of `mapping`: a message (or an empty root) with its place in the tree. */
export const MappingEntry = z
  .object({
    message: Message.nullable().optional(),
    parent: z.string().nullable().optional(),
    children: z.array(z.string()).default([]),
  })
  .passthrough()

/** A conversation's own fields, its mapping's entries not yet checked (they are, one by one, in slices). */
export const ConversationEnvelope = z
  .object({
    title: z.string().nullable().optional(),
    create_time: z.number().nullable().optional(),
    id: z.string().optional(),
    conversation_id: z.string().optional(),
    // Only that it is an object: copying a record of 80,000 entries through zod held the event loop.
    mapping: z.custom<Record<string, unknown>>(
      (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
      'expected an object of messages',
    ),
  })
  .passthrough()

export const Conversation = ConversationEnvelope.extend({ mapping: z.record(z.string(), MappingEntry) })
export type Conversation = z.infer<typeof Conversation>

/** One prompt/response pair of the graph, its parents named by their place in the list. */
export interface PairNode {
  timestamp: string
  prompt: string
  response: string
  model: string
  status: 'complete' | 'incomplete'
  parents: number[]
}

/** A conversation walked and measured, its replies not yet joined (see `pairNodes`). */
export interface ConversationPlan {
  nodes: PlannedNode[]
  /** Characters of prompt and reply text the nodes will hold. */
  text: number
  /** What could not be carried over (pictures, files, messages in a loop), counted by kind. */
  skipped: Map<string, number>
}

interface PlannedNode extends Omit<PairNode, 'response'> {
  answer: Answer | null
}

/**
 * The texts of a reply so far, newest first, each link shared by every branch that grows
 * from it: extending a reply costs one link, not a copy of what came before.
 */
interface Answer {
  text: string
  before: Answer | null
  /** Characters of the reply joined up to here. */
  length: number
}

/** A conversation beyond an import limit: skipped with this as the reason. */
export class OverLimit extends Error {
  override name = 'OverLimit'
}

/**
 * The conversation as prompt/response pairs: each user message with each answer given to it
 * (every regeneration is a branch of its own, every edited prompt a sibling), the answer
 * being the visible assistant text up to the next user message. System messages, tool calls
 * and hidden context stay out; pictures and files are counted as skipped.
 *
 * Each message is taken at most once, under the parent its own `parent` field names: an
 * export is a tree, and a damaged one (a message listing itself or an ancestor as a child,
 * two parents listing the same child) would otherwise be walked round a loop forever or
 * once for every path through it (46 messages can hold 2^22). Messages caught in a loop of
 * parents are never reached, and counted. Throws OverLimit past a limit of importLimits.ts;
 * the measure comes first and the replies are joined by `pairNodes`, so a conversation is
 * refused before its text is built.
 */
export async function planConversation(c: Conversation, slices = new TimeSlices()): Promise<ConversationPlan> {
  const map = c.mapping
  const ids = Object.keys(map)
  if (ids.length > MAX_IMPORT_MESSAGES)
    throw new OverLimit(`${ids.length} messages, over the limit of ${MAX_IMPORT_MESSAGES}`)
  const skipped = new Map<string, number>()
  const nodes: PlannedNode[] = []
  let text = 0
  const base = (c.create_time ?? 0) * 1000
  const time = (m: Message | null | undefined, fallback: number) =>
    new Date(m?.create_time ? m.create_time * 1000 : base + fallback * 1000).toISOString()
  const role = (id: string) => map[id]?.message?.author.role ?? 'none'
  // Built in slices too: one conversation of 80,000 messages took ~50 ms to map.
  const { roots, children } = await messageTree(map, ids, slices)
  const seen = new Set<string>()
  /** Marks `id` taken; false when it was taken before (a tree never does that: this makes it sure). */
  const take = (id: string) => !seen.has(id) && (seen.add(id), true)

  /** Every way an answer runs from `id` (excluded) down to where the user speaks next. */
  const answers = (id: string): Array<{ answer: Answer | null; model: string; users: string[] }> => {
    const out: Array<{ answer: Answer | null; model: string; users: string[] }> = []
    const stack: Array<{ id: string; answer: Answer | null; model: string }> = [{ id, answer: null, model: '' }]
    while (stack.length > 0) {
      const at = stack.pop()!
      const kids = children(at.id).filter(take)
      const users = kids.filter((k) => role(k) === 'user')
      const others = kids.filter((k) => role(k) !== 'user')
      if (others.length === 0 || users.length > 0) out.push({ answer: at.answer, model: at.model, users })
      for (const k of others.reverse()) {
        const m = map[k]!.message
        const said = m && role(k) === 'assistant' ? visibleText(m, skipped) : ''
        const model = m?.metadata?.model_slug ?? ''
        stack.push({ id: k, answer: said ? extend(at.answer, said) : at.answer, model: model || at.model })
      }
    }
    return out
  }

  // Breadth first, without recursion (a long conversation would overflow the stack), and
  // read by index: shifting a long queue costs its length each time.
  const work: Array<{ userId: string | null; from: string; parents: number[]; depth: number }> = roots
    .filter(take)
    .map((r) => ({ userId: null, from: r, parents: [], depth: 0 }))
  for (let next = 0; next < work.length; next++) {
    // One conversation may be most of an export: 40,000 turns walked at once held the loop ~0.4 s.
    if (slices.due()) await slices.next()
    const { userId, from, parents, depth } = work[next]!
    const user = userId ? map[userId]!.message : null
    const prompt = user ? visibleText(user, skipped) : ''
    if (prompt.length > IMPORT_TEXT_MAX)
      throw new OverLimit(`a prompt of ${prompt.length} characters, over the limit of ${IMPORT_TEXT_MAX}`)
    for (const { answer, model, users } of answers(from)) {
      const response = answer?.length ?? 0
      let here = parents
      let below = depth
      if (userId !== null || response > 0) {
        if (depth + 1 > MAX_IMPORT_DEPTH)
          throw new OverLimit(`more than ${MAX_IMPORT_DEPTH} prompts and replies one under another, the limit`)
        text += prompt.length + response
        if (text > MAX_IMPORT_FLOW_TEXT)
          throw new OverLimit(`more than ${MAX_IMPORT_FLOW_TEXT} characters of text, the limit for a conversation`)
        nodes.push({
          timestamp: time(user, nodes.length),
          prompt,
          answer,
          model: model ? `chatgpt:${model}` : 'chatgpt',
          status: response > 0 || userId === null ? 'complete' : 'incomplete',
          parents,
        })
        here = [nodes.length - 1]
        below = depth + 1
      }
      for (const u of users) work.push({ userId: u, from: u, parents: here, depth: below })
    }
  }
  const unreached = ids.length - seen.size
  if (unreached > 0) count(skipped, 'messages caught in a loop of parents', unreached)
  return { nodes, text, skipped }
}

/** The plan's nodes with their replies joined, as the graph takes them. */
export function pairNodes(plan: ConversationPlan): PairNode[] {
  return plan.nodes.map(paired)
}

/** pairNodes in slices of time: 40,000 replies joined at once held the loop ~0.3 s on a busy machine. */
export async function pairNodesInSlices(plan: ConversationPlan, slices = new TimeSlices()): Promise<PairNode[]> {
  const out: PairNode[] = []
  for (const node of plan.nodes) {
    if (slices.due()) await slices.next()
    out.push(paired(node))
  }
  return out
}

function paired({ answer, ...node }: PlannedNode): PairNode {
  return { ...node, response: joined(answer) }
}

/** `answer` followed by `text`; a reply longer than a node may hold is refused here, as it grows. */
function extend(answer: Answer | null, text: string): Answer {
  const length = answer ? answer.length + 2 + text.length : text.length
  if (length > IMPORT_TEXT_MAX) throw new OverLimit(`a reply longer than the limit of ${IMPORT_TEXT_MAX} characters`)
  return { text, before: answer, length }
}

function joined(answer: Answer | null): string {
  const texts: string[] = []
  for (let at = answer; at; at = at.before) texts.push(at.text)
  return texts.reverse().join('\n\n')
}

/**
 * Each message's children, from the `parent` each names: a message is the child of its own
 * parent only, whatever other messages' `children` lists claim. Children keep the order of
 * their parent's list (the first answer before its regenerations); any it leaves out follow
 * in the export's order. Roots are the messages with no parent in the conversation.
 */
async function messageTree(
  map: Conversation['mapping'],
  ids: readonly string[],
  slices: TimeSlices,
): Promise<{ roots: string[]; children: (id: string) => string[] }> {
  const roots: string[] = []
  const kids = new Map<string, string[]>()
  for (const id of ids) {
    if (slices.due()) await slices.next()
    const parent = map[id]!.parent
    if (parent && Object.hasOwn(map, parent)) {
      const list = kids.get(parent)
      if (list) list.push(id)
      else kids.set(parent, [id])
    } else roots.push(id)
  }
  for (const [parent, list] of kids) {
    if (slices.due()) await slices.next()
    if (list.length < 2) continue
    const place = new Map(map[parent]!.children.map((id, i) => [id, i] as const))
    list.sort((a, b) => (place.get(a) ?? Number.MAX_SAFE_INTEGER) - (place.get(b) ?? Number.MAX_SAFE_INTEGER))
  }
  return { roots, children: (id) => kids.get(id) ?? [] }
}

/** The text a person saw of a message: hidden context, tool traffic and pictures left out. */
function visibleText(m: Message, skipped: Map<string, number>): string {
  if (m.metadata?.is_visually_hidden_from_conversation) return ''
  if (m.recipient && m.recipient !== 'all') return '' // a call to a tool, not words for the user
  const c = m.content
  switch (c.content_type) {
    case 'text':
    case 'multimodal_text': {
      const texts: string[] = []
      for (const part of c.parts ?? []) {
        if (typeof part === 'string') texts.push(part)
        else count(skipped, 'pictures or files')
      }
      return texts.join('\n').trim()
    }
    case 'code':
      return c.text ? `\`\`\`\n${c.text}\n\`\`\`` : ''
    default:
      return '' // thoughts, browsing output, custom instructions: not part of the conversation shown
  }
}

function count(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n)
}
