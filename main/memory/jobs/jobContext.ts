import type { z } from 'zod'
import { PermanentJobError } from '../../kernel/jobs/handlers'
import { firstJsonObject } from '../../llm/json'
import { structuredSchema } from '../../llm/jsonSchema'
import { parseModelRef } from '../../llm/models'
import type { LlmRegistry } from '../../llm/providers'
import type { ChatMessage, JsonSchemaRequest, Usage } from '../../llm/types'
import { checkMayCall, recordCall, recordFailure, recordSuccess } from '../store/memoryBreaker'
import type { MemoryStore } from '../store/store'
import { completeWithUsage } from '../../llm/completeText'

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

/** What askJson needs; with the store and clock, it keeps the persona's spend and breaker too. */
export type AskContext = Pick<MemoryJobContext, 'llm' | 'signal'> & Partial<Pick<MemoryJobContext, 'store' | 'now'>>

/**
 * Asks the lightweight model for a JSON object of `schema`, through the provider's structured
 * output. An answer that does not parse or fit gets one request to fix it; a second bad answer
 * is a PermanentJobError with the reason: a model that cannot answer in this shape will not
 * learn to by being asked five more times. With a store, the call first checks the persona's
 * memory may spend (pause, breaker, budget: MemoryPaused), and counts calls, tokens and
 * failures (the breaker).
 */
export async function askJson<T>(
  ctx: AskContext,
  model: string,
  system: string,
  user: string,
  schema: z.ZodType<T>,
  name = 'memory_answer',
): Promise<T> {
  const db = ctx.store?.db
  const now = ctx.now ?? (() => Math.floor(Date.now() / 1000))
  if (db) checkMayCall(db, now())
  const jsonSchema = structuredSchema(name, schema)
  const messages: ChatMessage[] = [
    { role: 'system', content: `${system}\nAnswer with one JSON object only.` },
    { role: 'user', content: user },
  ]
  try {
    const first = await complete(ctx, model, messages, jsonSchema, now)
    let answer = readAnswer(first, schema)
    if (!answer.ok) {
      const repair: ChatMessage[] = [
        ...messages,
        { role: 'assistant', content: first },
        {
          role: 'user',
          content: `That answer cannot be used: ${answer.reason}. Answer again with the corrected JSON object only, no other text.`,
        },
      ]
      answer = readAnswer(await complete(ctx, model, repair, jsonSchema, now), schema)
    }
    if (!answer.ok) throw new PermanentJobError(`${answer.reason}, also when asked once to fix it`)
    if (db) recordSuccess(db)
    return answer.value
  } catch (e) {
    if (db && !ctx.signal.aborted) recordFailure(db, model, e, now())
    throw e
  }
}

/** One call's text; the call is counted against the persona's day whether it answered or not. */
async function complete(
  ctx: AskContext,
  model: string,
  messages: ChatMessage[],
  jsonSchema: JsonSchemaRequest,
  now: () => number,
): Promise<string> {
  const ref = parseModelRef(model)
  let answer: { text: string; usage: Usage | null } = { text: '', usage: null }
  try {
    answer = await completeWithUsage(ctx.llm, ref, messages, {
      json: true,
      jsonSchema,
      temperature: 0,
      signal: ctx.signal,
    })
  } finally {
    // A call that failed is counted too (with no usage): the breaker and the day's count see it.
    if (ctx.store) recordCall(ctx.store.db, model, answer.usage, now())
  }
  return answer.text
}

type Answer<T> = { ok: true; value: T } | { ok: false; reason: string }

/** The answer's first JSON object (code fences and prose around it tolerated), checked against the schema. */
function readAnswer<T>(text: string, schema: z.ZodType<T>): Answer<T> {
  const json = firstJsonObject(text)
  if (json === undefined) {
    const said = text.trim() ? ` (it began "${text.trim().slice(0, 60)}")` : ' (it was empty)'
    return { ok: false, reason: `the model's answer is not JSON${said}` }
  }
  const result = schema.safeParse(json)
  if (result.success) return { ok: true, value: result.data }
  const issues = result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`)
    .join('; ')
  return { ok: false, reason: `the model's answer does not fit (${issues})` }
}
