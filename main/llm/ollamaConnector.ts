import { randomUUID } from 'node:crypto'
import { deadline } from './deadline'
import { withIdleTimeout } from './idle'
import { isObject, parseJson, parseObject } from './json'
import { LlmError, callFailure, fromStatus, parseRetryAfter, redact, type FailedCall } from './llmError'
import { poolFetch } from './poolFetch'
import type {
  ChatEvent,
  ChatMessage,
  ChatRequest,
  Connector,
  EmbedRequest,
  GeneratedImage,
  ModelInfo,
  ToolCall,
  Usage,
} from './types'

export interface OllamaConfig {
  /** `http://127.0.0.1:11434` */
  baseURL: string
  /**
   * Until the response starts. Generous by default: Ollama answers only once the model is
   * loaded into memory, which can take minutes for a large model on a cold start.
   */
  connectTimeoutMs?: number
  /** Longest silence allowed inside a streaming reply. */
  idleTimeoutMs?: number
}

/** One line of /api/chat's NDJSON stream. */
interface ChatLine {
  message?: {
    content?: string
    tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }>
  }
  done?: boolean
  done_reason?: string
  prompt_eval_count?: number
  eval_count?: number
  /** Ollama reports failures inside an already-started stream this way. */
  error?: string
}

/** A local Ollama through its native HTTP API (it needs no key). */
export function ollamaConnector(config: OllamaConfig): Connector {
  const base = config.baseURL.replace(/\/+$/, '')
  const host = hostOf(base)
  const failure = (e: unknown, call: Omit<FailedCall, 'provider' | 'at'>) =>
    callFailure(e, { provider: 'ollama', at: host, ...call })
  const connectMs = config.connectTimeoutMs ?? 300_000
  const idleMs = config.idleTimeoutMs ?? 60_000

  /** Sends one request; a non-2xx answer becomes an LlmError from Ollama's `{error}` body. */
  async function call(path: string, model: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const connect = deadline(connectMs, signal)
    try {
      const res = await poolFetch(`${base}${path}`, { ...init, signal: connect.signal })
      if (!res.ok) {
        const retryAfter = parseRetryAfter(res.headers.get('retry-after'))
        throw fromStatus('ollama', res.status, model, await errorText(res), retryAfter)
      }
      return res
    } catch (e) {
      throw failure(e, { signal, timedOut: connect.timedOut() })
    } finally {
      connect.clear()
    }
  }

  /** Reads a JSON body; one cut short is a connection lost mid-reply. */
  async function readJson(res: Response, signal?: AbortSignal): Promise<unknown> {
    try {
      return await res.json()
    } catch (e) {
      throw failure(e, { signal, stage: 'stream' })
    }
  }

  const post = (path: string, model: string, body: unknown, signal?: AbortSignal) =>
    call(
      path,
      model,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      signal,
    )

  return {
    provider: 'ollama',

    async *chat(request: ChatRequest): AsyncGenerator<ChatEvent> {
      const { model, signal } = request
      const stop = new AbortController()
      try {
        const res = await post(
          '/api/chat',
          model,
          {
            model,
            messages: request.messages.map(toOllama),
            stream: true,
            options: {
              temperature: request.temperature,
              num_predict: request.maxTokens,
              num_ctx: contextWindow(request),
            },
            tools: request.tools?.length
              ? request.tools.map((t) => ({
                  type: 'function',
                  function: { name: t.name, description: t.description, parameters: t.parameters },
                }))
              : undefined,
            // Ollama takes a JSON Schema in `format` and constrains the output to it.
            format: request.jsonSchema?.schema ?? (request.json ? 'json' : undefined),
          },
          AbortSignal.any([stop.signal, ...(signal ? [signal] : [])]),
        )
        const calls: ToolCall[] = []
        let usage: Usage | null = null
        let finish: string | null = null
        let finished = false
        const silence = () => new LlmError('timeout', `Ollama stopped sending for ${idleMs / 1000} s`)
        try {
          for await (const line of withIdleTimeout(ndjson(res), idleMs, () => (stop.abort(), silence()))) {
            if (line.error) throw new LlmError('unavailable', `Ollama failed mid-reply: ${redact(line.error)}`)
            if (line.message?.content) yield { type: 'delta', text: line.message.content }
            for (const c of line.message?.tool_calls ?? []) calls.push(toCall(c))
            if (line.done) {
              finished = true
              finish = line.done_reason ?? null
              usage = { prompt_tokens: line.prompt_eval_count ?? 0, completion_tokens: line.eval_count ?? 0 }
            }
          }
        } catch (e) {
          throw failure(e, { signal, stage: 'stream' })
        }
        // A body that ends without the `done` line was cut short, even if the socket closed politely.
        if (!finished) throw new LlmError('unavailable', 'the connection to Ollama broke off mid-reply')
        for (const c of calls) yield { type: 'tool_call', call: c }
        yield { type: 'done', usage, finish_reason: calls.length > 0 ? 'tool_calls' : finish }
      } finally {
        // Also runs when the caller stops reading early: release the connection.
        stop.abort()
      }
    },

    async embed(request: EmbedRequest): Promise<number[][]> {
      if (request.input.length === 0) return []
      const res = await post(
        '/api/embed',
        request.model,
        { model: request.model, input: request.input },
        request.signal,
      )
      const body = (await readJson(res, request.signal)) as { embeddings?: number[][] }
      return body.embeddings ?? []
    },

    // Ollama has no stable image-generation API: refuse before sending anything.
    async generateImage(): Promise<GeneratedImage> {
      throw new LlmError('bad_request', 'Ollama cannot generate images; choose an OpenAI or Gemini image model')
    },

    async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
      const res = await call('/api/tags', '', { method: 'GET' }, signal)
      return tagsToModels(await readJson(res, signal))
    },
  }
}

/**
 * The models of a local Ollama when one answers within `timeoutMs`, else null. Never throws:
 * it is a probe for first-run setup, and "no Ollama here" is an ordinary answer.
 */
export async function detectOllama(baseURL = 'http://127.0.0.1:11434', timeoutMs = 800): Promise<ModelInfo[] | null> {
  try {
    const res = await poolFetch(`${baseURL.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) })
    if (!res.ok) return null
    const body: unknown = await res.json()
    if (!body || typeof body !== 'object' || !Array.isArray((body as { models?: unknown }).models)) return null
    return tagsToModels(body)
  } catch {
    return null
  }
}

function tagsToModels(body: unknown): ModelInfo[] {
  const models = (body as { models?: Array<{ name?: unknown }> }).models ?? []
  return models
    .map((m) => (typeof m.name === 'string' ? m.name : ''))
    .filter(Boolean)
    .map((id) => ({ id, ref: `ollama:${id}` }))
    .sort((a, b) => a.id.localeCompare(b.id))
}

function toOllama(m: ChatMessage): Record<string, unknown> {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content }
    case 'user': {
      if (typeof m.content === 'string') return { role: 'user', content: m.content }
      // Ollama takes one text per message and the pictures beside it as bare base64.
      const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n')
      const images = m.content.flatMap((p) => (p.type === 'image' ? [p.data_base64] : []))
      return { role: 'user', content: text, ...(images.length ? { images } : {}) }
    }
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        // Ollama wants the arguments as an object, not the JSON text OpenAI uses.
        ...(m.tool_calls?.length
          ? {
              tool_calls: m.tool_calls.map((c) => ({
                function: { name: c.name, arguments: parseObject(c.arguments) },
              })),
            }
          : {}),
      }
    case 'tool':
      // Ollama matches results to calls by function name.
      return { role: 'tool', content: m.content, tool_name: m.name }
  }
}

function toCall(c: NonNullable<NonNullable<ChatLine['message']>['tool_calls']>[number]): ToolCall {
  const args = c.function?.arguments
  return {
    // Older Ollama versions give calls no id.
    id: c.id || `call_${randomUUID()}`,
    name: c.function?.name ?? '',
    arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
  }
}

/** Parses a streamed NDJSON body line by line; a line may arrive split across chunks. */
async function* ndjson(res: Response): AsyncGenerator<ChatLine> {
  if (!res.body) return
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true })
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim()
      buffer = buffer.slice(newline + 1)
      if (line) yield parseLine(line)
    }
  }
  const rest = (buffer + decoder.decode()).trim()
  if (rest) yield parseLine(rest)
}

function parseLine(line: string): ChatLine {
  try {
    return JSON.parse(line) as ChatLine
  } catch {
    throw new LlmError('unavailable', 'Ollama sent a reply that is not JSON')
  }
}

/** Ollama's error body is `{"error": "…"}`; anything else (a proxy's page, say) is shown as its text. */
async function errorText(res: Response): Promise<string | undefined> {
  const text = await res.text().catch(() => '')
  const body = parseJson(text)
  if (isObject(body) && typeof body.error === 'string') return body.error
  return text || undefined
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** What a reply gets on top of the prompt when the request does not say. */
const REPLY_ROOM = 2048

/**
 * Ollama's window for a request: the prompt's budget plus room for the reply, in whole KB of
 * tokens. Ollama's default (2,048–4,096 tokens) silently drops the front of a longer prompt —
 * the persona, the memory, the story so far. Undefined (Ollama's own choice) when no budget is given.
 */
export function contextWindow(request: Pick<ChatRequest, 'contextTokens' | 'maxTokens'>): number | undefined {
  if (!request.contextTokens) return undefined
  const tokens = request.contextTokens + (request.maxTokens ?? REPLY_ROOM)
  return Math.ceil(tokens / 1024) * 1024
}
