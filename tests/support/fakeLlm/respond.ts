// The part of a scripted call every provider shares: pick the rule, wait, and fail as scripted.

import { bodyObject, isKnownModel, type Context } from './context'
import { errorAnswer, type Failure } from './errors'
import { cut, sendJson, sleep, waitFor } from './stream'
import type { Endpoint, Provider, ScriptRule } from './types'

export function sendFailure(ctx: Context, provider: Provider, failure: Failure): void {
  const { status, body } = errorAnswer(provider, failure)
  const headers: Record<string, string> = {}
  if (failure.kind === 'status' && failure.status === 429) {
    const ms = failure.retryAfterMs ?? 1000
    headers['retry-after'] = String(Math.ceil(ms / 1000))
    headers['retry-after-ms'] = String(ms)
  }
  sendJson(ctx.res, status, body, headers)
}

export interface Call {
  provider: Provider
  model: string
  endpoint: Endpoint
  streaming: boolean
  /** The Gemini method name, for its not-found message. */
  method?: string
  /** The last user message, for rules that answer only a particular prompt. */
  prompt?: string
}

/**
 * Checks the model, takes the matching rule and applies its delay and scripted failure.
 * Returns the rule (null: default reply) when the route should answer, undefined when the
 * exchange is already over (error sent, connection cut, or client gone).
 */
export async function beginCall(ctx: Context, call: Call): Promise<ScriptRule | null | undefined> {
  const { provider, model } = call
  if (!isKnownModel(ctx, provider, model)) {
    sendFailure(ctx, provider, { kind: 'model_not_found', model, method: call.method })
    return undefined
  }
  const rule = ctx.rules.take(provider, model, call.endpoint, call.prompt ?? '')
  if (rule?.until && !(await waitFor(rule.until, ctx.signal))) {
    cut(ctx.res)
    return undefined
  }
  if (rule?.delayMs && !(await sleep(rule.delayMs, ctx.signal))) {
    cut(ctx.res)
    return undefined
  }
  if (ctx.signal.aborted) {
    cut(ctx.res)
    return undefined
  }
  if (rule?.status) {
    sendFailure(ctx, provider, { kind: 'status', status: rule.status, model, retryAfterMs: rule.retryAfterMs })
    return undefined
  }
  if (rule?.disconnectAfterChunks !== undefined && !call.streaming) {
    cut(ctx.res)
    return undefined
  }
  return rule
}

/** The `model` field of a JSON body, when it is a non-empty string. */
export function modelInBody(ctx: Context): string | null {
  const model = bodyObject(ctx).model
  return typeof model === 'string' && model ? model : null
}
