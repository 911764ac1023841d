import type { z } from 'zod'
import { parseModelRef } from '../llm/models'
import type { LlmRegistry } from '../llm/providers'
import type { ChatMessage } from '../llm/types'
import type { MemoryStore } from './store'

// What every memory job handler is given and how it asks the lightweight model. Its own
// module, so the handlers (memoryJobs, summaryJobs, capsuleJob, embedJob) import no cycle.

/** What a memory job gets: the persona's store, the LLM connectors, a stop signal. */
export interface MemoryJobContext {
  store: MemoryStore
  llm: LlmRegistry
  signal: AbortSignal
  now: () => number
  enqueue(kind: string, payload: unknown, options?: { dedupeKey?: string; delaySeconds?: number }): void
}

/** A memory job handler. Idempotent: a job may run again after a crash or a retry. */
export type MemoryJobHandler = (payload: unknown, ctx: MemoryJobContext) => Promise<void>

/** Asks the lightweight model for a JSON object and validates it; a malformed answer is retried. */
export async function askJson<T>(
  ctx: Pick<MemoryJobContext, 'llm' | 'signal'>,
  model: string,
  system: string,
  user: string,
  schema: z.ZodType<T>,
): Promise<T> {
  const ref = parseModelRef(model)
  const messages: ChatMessage[] = [
    { role: 'system', content: `${system}\nAnswer with one JSON object only.` },
    { role: 'user', content: user },
  ]
  let text = ''
  for await (const e of ctx.llm
    .connector(ref.provider)
    .chat({ model: ref.model, messages, json: true, temperature: 0, signal: ctx.signal }))
    if (e.type === 'delta') text += e.text
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    throw new Error(`the model's answer is not JSON: ${text.slice(0, 200)}`)
  }
  const result = schema.safeParse(parsed)
  if (!result.success) throw new Error(`the model's answer does not fit: ${result.error.message.slice(0, 300)}`)
  return result.data
}
