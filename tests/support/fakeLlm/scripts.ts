// The rules a test scripts, and the reply a request gets when no rule speaks for it.

import type { Context } from './context'
import { sameModel } from './models'
import type { Endpoint, Provider, ScriptHandle, ScriptRule, ScriptedToolCall } from './types'

export interface ToolCallOut {
  id: string
  name: string
  args: Record<string, unknown>
  /** The arguments as JSON text, as OpenAI sends them. */
  argsJson: string
}

/** A reply ready to be written in any provider's wire format. */
export interface Reply {
  text: string
  chunks: string[]
  toolCalls: ToolCallOut[]
}

interface StoredRule {
  rule: ScriptRule
  served: number
}

export class RuleBook {
  private rules: StoredRule[] = []

  add(rule: ScriptRule): ScriptHandle {
    validate(rule)
    const stored: StoredRule = { rule: { ...rule }, served: 0 }
    this.rules.push(stored)
    return {
      get served() {
        return stored.served
      },
    }
  }

  /** The first rule matching the request with uses left; counts the use. */
  take(provider: Provider, model: string, endpoint: Endpoint, prompt = ''): ScriptRule | null {
    const hit = this.rules.find(
      ({ rule, served }) =>
        (rule.provider === undefined || rule.provider === provider) &&
        (rule.promptIncludes === undefined || prompt.includes(rule.promptIncludes)) &&
        (rule.model === undefined || sameModel(provider, rule.model, model)) &&
        (rule.endpoint ?? 'chat') === endpoint &&
        (rule.times === undefined || served < rule.times),
    )
    if (!hit) return null
    hit.served++
    return hit.rule
  }

  /** Models named by rules count as known, so a test can script a model without configuring it. */
  scriptedModels(provider: Provider): string[] {
    return this.rules
      .filter(({ rule }) => rule.model !== undefined && (rule.provider === undefined || rule.provider === provider))
      .map(({ rule }) => rule.model as string)
  }

  clear(): void {
    this.rules = []
  }
}

function validate(rule: ScriptRule): void {
  for (const key of ['delayMs', 'chunkDelayMs', 'disconnectAfterChunks', 'retryAfterMs', 'times'] as const) {
    const value = rule[key]
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new Error(`fakeLlm.script: ${key} must be a whole number ≥ 0, got ${value}`)
    }
  }
  if (rule.times === 0) throw new Error('fakeLlm.script: times must be at least 1')
  const text = typeof rule.reply === 'string' ? rule.reply : rule.reply?.text
  if (rule.chunks && text !== undefined && rule.chunks.join('') !== text) {
    throw new Error('fakeLlm.script: chunks must join to the reply text')
  }
}

/** The reply a rule scripts, or the default echo of the last user message. */
export function replyFor(ctx: Context, rule: ScriptRule | null, lastUserText: string): Reply {
  const scripted = typeof rule?.reply === 'string' ? { text: rule.reply } : rule?.reply
  const chunks = rule?.chunks
  const text = scripted?.text ?? chunks?.join('') ?? (scripted?.toolCalls ? '' : `echo: ${lastUserText}`)
  return {
    text,
    chunks: chunks ? [...chunks] : splitWords(text),
    toolCalls: (scripted?.toolCalls ?? []).map((call) => toToolCall(call, ctx.nextId('call_fake_'))),
  }
}

function toToolCall(call: ScriptedToolCall, id: string): ToolCallOut {
  const raw = call.arguments ?? {}
  const argsJson = typeof raw === 'string' ? raw : JSON.stringify(raw)
  let args: Record<string, unknown> = {}
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw)
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>
    } catch {
      // Malformed JSON is a legitimate script (the model can produce it); only OpenAI can carry it as-is.
    }
  } else {
    args = raw
  }
  return { id, name: call.name, args, argsJson }
}

/** "Hello there world" → ["Hello ", "there ", "world"]: word-sized deltas, like a tokenizer would give. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : [])
}

/** A deterministic stand-in for a token count. */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4)
}
