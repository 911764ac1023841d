import type { LlmRegistry } from './providers'
import type { ModelRef } from './models'
import type { ChatMessage } from './types'

/** A whole answer from a model (no streaming to anyone): what a background job needs. */
export async function completeText(
  llm: LlmRegistry,
  ref: ModelRef,
  messages: ChatMessage[],
  options: { signal?: AbortSignal; temperature?: number; maxTokens?: number } = {},
): Promise<string> {
  let text = ''
  for await (const event of llm.connector(ref.provider).chat({ model: ref.model, messages, ...options })) {
    if (event.type === 'delta') text += event.text
  }
  return text
}
