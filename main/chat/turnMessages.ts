import type { ContextPreview, Persona } from '@shared/contract'
import type { FlowInfo } from '../graph/flowContext'
import type { Calibration } from '../llm/tokenCalibration'
import type { ChatMessage, ContentPart } from '../llm/types'
import { promptContext, type FlowStory, type PromptContextDeps } from './promptContext'
import type { Turn } from './turn'

const CONTINUE_PROMPT = 'Continue exactly where your previous message stopped. Do not repeat anything.'

/**
 * What the model receives for one turn: the context of seed §7.3 with the persona's MemoryPack
 * in the system message (built by `promptContext`), images beside the prompt, and — when
 * continuing — the text so far. The context comes back beside them: the turn saves it with the
 * node, so the inspector can show exactly what was sent.
 */
export async function turnMessages(
  deps: PromptContextDeps,
  turn: Turn,
  read: {
    persona: Persona | null
    calibration?: Calibration | null
    toolTokens?: number
    /** What the turn has read already: its flow's fields and the story playing it (null: none). */
    flow?: FlowInfo
    story?: FlowStory | null
  },
): Promise<{ messages: ChatMessage[]; context: ContextPreview }> {
  const { persona, calibration = null, toolTokens = 0, flow, story } = read
  const context = await promptContext(deps, {
    flowId: turn.flowId,
    parentIds: turn.parentIds,
    prompt: turn.request?.ask ?? turn.prompt,
    persona,
    nodeId: turn.nodeId,
    secret: turn.request?.secret,
    searched: turn.request?.words,
    calibration,
    toolTokens,
    flow,
    story,
  })
  const messages: ChatMessage[] = context.messages.map((m) => ({ role: m.role, content: m.content }) as ChatMessage)
  if (turn.images.length > 0) {
    // The prompt is the last message unless a lorebook entry or the Author's Note went in after it (depth 0).
    const at = messages.findLastIndex((m) => m.role === 'user' && m.content === turn.prompt)
    const index = at >= 0 ? at : messages.length - 1
    const last = messages[index]!
    const parts: ContentPart[] = [
      { type: 'text', text: turn.prompt },
      ...turn.images.map((i) => ({ type: 'image' as const, ...i })),
    ]
    messages[index] = { role: 'user', content: typeof last.content === 'string' ? parts : last.content }
  }
  if (turn.continueFrom)
    messages.push({ role: 'assistant', content: turn.continueFrom }, { role: 'user', content: CONTINUE_PROMPT })
  return { messages, context }
}
