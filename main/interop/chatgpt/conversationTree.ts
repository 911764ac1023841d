import { z } from 'zod'

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

export const Conversation = z
  .object({
    title: z.string().nullable().optional(),
    create_time: z.number().nullable().optional(),
    id: z.string().optional(),
    conversation_id: z.string().optional(),
    mapping: z.record(
      z.string(),
      z
        .object({
          message: Message.nullable().optional(),
          parent: z.string().nullable().optional(),
          children: z.array(z.string()).default([]),
        })
        .passthrough(),
    ),
  })
  .passthrough()
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

export interface ConversationPairs {
  nodes: PairNode[]
  /** What could not be carried over (pictures, files), counted by kind. */
  skipped: Map<string, number>
}

/**
 * The conversation as prompt/response pairs: each user message with each answer given to it
 * (every regeneration is a branch of its own, every edited prompt a sibling), the answer
 * being the visible assistant text up to the next user message. System messages, tool calls
 * and hidden context stay out; pictures and files are counted as skipped.
 */
export function conversationPairs(c: Conversation): ConversationPairs {
  const map = c.mapping
  const skipped = new Map<string, number>()
  const nodes: PairNode[] = []
  const base = (c.create_time ?? 0) * 1000
  const time = (m: Message | null | undefined, fallback: number) =>
    new Date(m?.create_time ? m.create_time * 1000 : base + fallback * 1000).toISOString()
  const role = (id: string) => map[id]?.message?.author.role ?? 'none'
  const children = (id: string) => (map[id]?.children ?? []).filter((k) => Object.hasOwn(map, k))

  /** Every way an answer runs from `id` (excluded) down to where the user speaks next. */
  const answers = (id: string): Array<{ texts: string[]; model: string; users: string[] }> => {
    const out: Array<{ texts: string[]; model: string; users: string[] }> = []
    const stack: Array<{ id: string; texts: string[]; model: string }> = [{ id, texts: [], model: '' }]
    while (stack.length > 0) {
      const at = stack.pop()!
      const kids = children(at.id)
      const users = kids.filter((k) => role(k) === 'user')
      const others = kids.filter((k) => role(k) !== 'user')
      if (others.length === 0 || users.length > 0) out.push({ texts: at.texts, model: at.model, users })
      for (const k of others.reverse()) {
        const m = map[k]!.message
        const text = m && role(k) === 'assistant' ? visibleText(m, skipped) : ''
        const model = m?.metadata?.model_slug ?? ''
        stack.push({ id: k, texts: text ? [...at.texts, text] : at.texts, model: model || at.model })
      }
    }
    return out
  }

  // Iterative: a long conversation would overflow the stack by recursion.
  const roots = Object.keys(map).filter((id) => !map[id]!.parent || !Object.hasOwn(map, map[id]!.parent!))
  const work: Array<{ userId: string | null; from: string; parents: number[] }> = roots.map((r) => ({
    userId: null,
    from: r,
    parents: [],
  }))
  while (work.length > 0) {
    const { userId, from, parents } = work.shift()!
    const user = userId ? map[userId]!.message : null
    const prompt = user ? visibleText(user, skipped) : ''
    const found = answers(from)
    for (const answer of found) {
      const response = answer.texts.join('\n\n')
      let here = parents
      if (userId !== null || response) {
        nodes.push({
          timestamp: time(user, nodes.length),
          prompt,
          response,
          model: answer.model ? `chatgpt:${answer.model}` : 'chatgpt',
          status: response || userId === null ? 'complete' : 'incomplete',
          parents,
        })
        here = [nodes.length - 1]
      }
      for (const u of answer.users) work.push({ userId: u, from: u, parents: here })
    }
  }
  return { nodes, skipped }
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

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1)
}
