import type { LlmRegistry } from './providers'
import type { ModelRef } from './models'
import type { ChatMessage, ChatRequest, Usage } from './types'

/** A whole answer from a model (no streaming to anyone): what a background job needs. */
export async function completeText(
  llm: Pick<LlmRegistry, 'connector'>,
  ref: ModelRef,
  messages: ChatMessage[],
  options: Omit<ChatRequest, 'model' | 'messages' | 'tools'> = {},
): Promise<string> {
  return (await completeWithUsage(llm, ref, messages, options)).text
}

/** The same, with what the provider says the call used (null when it says nothing). */
export async function completeWithUsage(
  llm: Pick<LlmRegistry, 'connector'>,
  ref: ModelRef,
  messages: ChatMessage[],
  options: Omit<ChatRequest, 'model' | 'messages' | 'tools'> = {},
): Promise<{ text: string; usage: Usage | null }> {
  let text = ''
  let usage: Usage | null = null
  for await (const event of llm.connector(ref.provider).chat({ model: ref.model, messages, ...options })) {
    if (event.type === 'delta') text += event.text
    if (event.type === 'done') usage = event.usage
  }
  return { text, usage }
}
