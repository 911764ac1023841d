import type { Persona } from '@shared/contract'
import { flowContext } from '../graph/flowContext'
import type { GraphService } from '../graph/graphService'
import { tokenCount } from '../kernel/tokens'
import type { ChatMessage, ContentPart } from '../llm/types'
import type { ChatMemory } from '../memory/memory'
import type { SettingsService } from '../settings/settingsService'
import type { Turn } from './turn'

const CONTINUE_PROMPT = 'Continue exactly where your previous message stopped. Do not repeat anything.'

export interface TurnDeps {
  graph: GraphService
  settings: SettingsService
  memory: ChatMemory | null
}

/**
 * What the model receives for one turn: the context of seed §7.3, the persona's MemoryPack in
 * the system message, images beside the prompt, and — when continuing — the text so far. The
 * context is saved with the node so the inspector can show exactly what was sent.
 */
export async function turnMessages(deps: TurnDeps, turn: Turn, persona: Persona | null): Promise<ChatMessage[]> {
  const context = flowContext(deps.graph, deps.settings, {
    flowId: turn.flowId,
    parentIds: turn.parentIds,
    prompt: turn.prompt,
    persona,
  })
  const pack = persona && deps.memory ? await memoryPack(deps.memory, turn, persona, context.budget) : null
  if (pack) {
    // Seed 004: guard prompt + MemoryPack + user text. The pack rides in the system message.
    const tokens = tokenCount(pack)
    context.parts.splice(2, 0, { kind: 'memory', node_id: null, text: pack, tokens })
    context.total_tokens += tokens
    context.messages[0] = { role: 'system', content: `${context.messages[0]!.content}\n\n${pack}` }
  }
  if (!turn.continueFrom) deps.graph.saveSentContext(turn.nodeId, context)
  const messages: ChatMessage[] = context.messages.map((m) => ({ role: m.role, content: m.content }) as ChatMessage)
  if (turn.images.length > 0) {
    const last = messages.at(-1)!
    const parts: ContentPart[] = [
      { type: 'text', text: turn.prompt },
      ...turn.images.map((i) => ({ type: 'image' as const, ...i })),
    ]
    messages[messages.length - 1] = { role: 'user', content: typeof last.content === 'string' ? parts : last.content }
  }
  if (turn.continueFrom)
    messages.push({ role: 'assistant', content: turn.continueFrom }, { role: 'user', content: CONTINUE_PROMPT })
  return messages
}

/** A quarter of the context budget (at most 2,000 tokens) for what the persona remembers. */
async function memoryPack(memory: ChatMemory, turn: Turn, persona: Persona, budget: number): Promise<string | null> {
  try {
    return await memory.packFor({
      personaId: persona.id,
      query: turn.prompt,
      nodeId: turn.nodeId,
      flowId: turn.flowId,
      budgetTokens: Math.min(2000, Math.floor(budget / 4)),
    })
  } catch {
    return null // a memory problem must not cost the user their reply
  }
}
