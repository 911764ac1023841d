import { randomUUID } from 'node:crypto'
import { ApiError, GoogleGenAI, Modality, type Content, type GenerateContentConfig, type Part } from '@google/genai'
import { deadline } from './deadline'
import { toGeneratedImage } from './generatedImage'
import { withIdleTimeout } from './idle'
import { isObject, parseJson, parseObject } from './json'
import { LlmError, callFailure, fromStatus, type FailedCall } from './llmError'
import type {
  ChatEvent,
  ChatMessage,
  ChatRequest,
  Connector,
  EmbedRequest,
  GeneratedImage,
  ImageRequest,
  ModelInfo,
  ToolCall,
  Usage,
} from './types'

export interface GeminiConfig {
  apiKey: string
  /** `https://generativelanguage.googleapis.com`; the SDK adds the API version. */
  baseURL: string
  /** Until the response starts. */
  connectTimeoutMs?: number
  /** Longest silence allowed inside a streaming reply. */
  idleTimeoutMs?: number
  /** Until a generated picture arrives: image models answer only once the picture is done. */
  imageTimeoutMs?: number
}

/** batchEmbedContents refuses more than 100 requests at once. */
const embedBatchSize = 100
/** Ids we make up when Gemini gives none; they are never sent back, since Gemini did not issue them. */
const localIdPrefix = 'gemini_local_'
/**
 * Google's documented stand-in for a lost thought signature. Gemini 3 refuses a replayed
 * function call without one, and our stored history (ToolCall) has no field to keep it.
 */
const skipSignature = 'skip_thought_signature_validator'

/** Google's Gemini Developer API through the official `@google/genai` SDK. */
export function geminiConnector(config: GeminiConfig): Connector {
  const connectMs = config.connectTimeoutMs ?? 30_000
  const idleMs = config.idleTimeoutMs ?? 60_000
  const imageMs = config.imageTimeoutMs ?? 180_000
  // One attempt only: retries belong to chatWithRetry, which knows not to retry once text has streamed.
  // (`httpOptions.timeout` is not used: the SDK keeps it armed while the body streams, so it would cut long replies.)
  const ai = new GoogleGenAI({
    apiKey: config.apiKey,
    httpOptions: { baseUrl: config.baseURL, retryOptions: { attempts: 1 } },
  })
  // Real thought signatures by call id, so a tool round trip within this run replays them exactly.
  const signatures = new BoundedMap<string, string>(500)

  return {
    provider: 'gemini',

    async *chat(request: ChatRequest): AsyncGenerator<ChatEvent> {
      const { model, signal } = request
      const stop = new AbortController()
      const connect = deadline(connectMs, AbortSignal.any([stop.signal, ...(signal ? [signal] : [])]))
      try {
        const { contents, systemInstruction } = toContents(request.messages, model, signatures)
        const stream = await ai.models
          .generateContentStream({
            model,
            contents,
            config: { ...toConfig(request, systemInstruction), abortSignal: connect.signal },
          })
          .catch((e: unknown) => {
            throw mapError(e, model, { signal, timedOut: connect.timedOut() })
          })
          .finally(connect.clear)

        const calls: ToolCall[] = []
        let usage: Usage | null = null
        let finish: string | null = null
        const silence = () => new LlmError('timeout', `Gemini stopped sending for ${idleMs / 1000} s`)
        try {
          for await (const chunk of withIdleTimeout(stream, idleMs, () => (stop.abort(), silence()))) {
            const meta = chunk.usageMetadata
            if (meta) {
              // Thinking tokens are billed as output, as OpenAI counts reasoning tokens in completion_tokens.
              const completion = (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0)
              usage = { prompt_tokens: meta.promptTokenCount ?? 0, completion_tokens: completion }
            }
            const candidate = chunk.candidates?.[0]
            if (candidate?.finishReason) finish = candidate.finishReason
            for (const part of candidate?.content?.parts ?? []) {
              // Thought summaries are the model's notes, not its reply.
              if (part.text && !part.thought) yield { type: 'delta', text: part.text }
              if (part.functionCall) calls.push(toCall(part, signatures))
            }
          }
        } catch (e) {
          throw mapError(e, model, { signal, stage: 'stream' })
        }
        for (const call of calls) yield { type: 'tool_call', call }
        yield { type: 'done', usage, finish_reason: finishReason(finish, calls.length > 0) }
      } finally {
        // Also runs when the caller stops reading early: release the connection.
        stop.abort()
      }
    },

    async embed(request: EmbedRequest): Promise<number[][]> {
      const vectors: number[][] = []
      for (let i = 0; i < request.input.length; i += embedBatchSize) {
        const batch = request.input.slice(i, i + embedBatchSize)
        const call = deadline(connectMs, request.signal)
        try {
          const res = await ai.models.embedContent({
            model: request.model,
            contents: batch.map((text) => ({ role: 'user', parts: [{ text }] })),
            config: { abortSignal: call.signal },
          })
          vectors.push(...(res.embeddings ?? []).map((e) => e.values ?? []))
        } catch (e) {
          throw mapError(e, request.model, { signal: request.signal, timedOut: call.timedOut() })
        } finally {
          call.clear()
        }
      }
      return vectors
    },

    async generateImage({ model, prompt, signal }: ImageRequest): Promise<GeneratedImage> {
      // Google shut Imagen down on the Gemini API (August 2026), and the SDK's generateImages
      // now refuses any client that is not Vertex AI before sending a thing.
      if (/^(?:models\/)?imagen-/.test(model)) {
        throw new LlmError(
          'bad_request',
          `${model} is an Imagen model, which Gemini no longer serves; choose a Gemini image model such as gemini-2.5-flash-image`,
        )
      }
      const call = deadline(imageMs, signal)
      try {
        const res = await ai.models.generateContent({
          model,
          contents: [{ role: 'user', parts: [{ text: prompt }] }],
          // Image models answer text beside the picture; asking for IMAGE alone is refused by some.
          config: { responseModalities: [Modality.IMAGE, Modality.TEXT], abortSignal: call.signal },
        })
        const candidate = res.candidates?.[0]
        // Thinking image models may send draft pictures marked as thoughts before the real one.
        const picture = candidate?.content?.parts?.find(
          (p) => !p.thought && p.inlineData?.data && (p.inlineData.mimeType ?? 'image/').startsWith('image/'),
        )?.inlineData?.data
        if (picture) return toGeneratedImage('gemini', model, picture)
        const why = res.promptFeedback?.blockReason ?? candidate?.finishReason
        const reason = why && why !== 'STOP' ? ` (${why})` : ''
        throw new LlmError('bad_request', `${model} answered without a picture${reason}`)
      } catch (e) {
        throw mapError(e, model, { signal, timedOut: call.timedOut() })
      } finally {
        call.clear()
      }
    },

    async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
      const call = deadline(connectMs, signal)
      try {
        const models: ModelInfo[] = []
        for await (const m of await ai.models.list({ config: { abortSignal: call.signal, pageSize: 1000 } })) {
          const id = (m.name ?? '').replace(/^models\//, '')
          if (id) models.push({ id, ref: `gemini:${id}` })
        }
        return models.sort((a, b) => a.id.localeCompare(b.id))
      } catch (e) {
        throw mapError(e, '', { signal, timedOut: call.timedOut() })
      } finally {
        call.clear()
      }
    },
  }
}

function toConfig(request: ChatRequest, systemInstruction: string | undefined): GenerateContentConfig {
  return {
    systemInstruction,
    temperature: request.temperature,
    maxOutputTokens: request.maxTokens,
    responseMimeType: request.json || request.jsonSchema ? 'application/json' : undefined,
    // The SDK turns plain JSON Schema (no `$schema`) into Gemini's Schema: upper-case types, `nullable`.
    responseSchema: request.jsonSchema?.schema,
    // Our ToolSpec parameters are plain JSON Schema, which Gemini takes as `parametersJsonSchema`
    // (its `parameters` field wants Google's OpenAPI-style Schema).
    tools: request.tools?.length
      ? [
          {
            functionDeclarations: request.tools.map((t) => ({
              name: t.name,
              description: t.description,
              parametersJsonSchema: t.parameters,
            })),
          },
        ]
      : undefined,
    // The SDK would otherwise re-open a dropped stream by itself; a retry is chatWithRetry's call.
    automaticContinuation: false,
  }
}

/** Our messages → Gemini contents: system text goes to systemInstruction, assistant is `model`, tool results are `user`. */
function toContents(
  messages: ChatMessage[],
  model: string,
  signatures: BoundedMap<string, string>,
): { contents: Content[]; systemInstruction: string | undefined } {
  const system: string[] = []
  const contents: Content[] = []
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(m.content)
      continue
    }
    const parts = toParts(m, model, signatures)
    if (parts.length === 0) continue
    const role = m.role === 'assistant' ? 'model' : 'user'
    const last = contents.at(-1)
    // Answers to parallel calls must arrive together in one turn, as many as there were calls.
    if (m.role === 'tool' && last?.role === 'user' && last.parts?.every((p) => p.functionResponse)) {
      last.parts.push(...parts)
    } else {
      contents.push({ role, parts })
    }
  }
  return { contents, systemInstruction: system.length ? system.join('\n\n') : undefined }
}

function toParts(
  m: Exclude<ChatMessage, { role: 'system' }>,
  model: string,
  signatures: BoundedMap<string, string>,
): Part[] {
  switch (m.role) {
    case 'user':
      if (typeof m.content === 'string') return [{ text: m.content }]
      return m.content.map((p) =>
        p.type === 'text' ? { text: p.text } : { inlineData: { mimeType: p.mime, data: p.data_base64 } },
      )
    case 'assistant': {
      const parts: Part[] = m.content ? [{ text: m.content }] : []
      for (const call of m.tool_calls ?? []) {
        const signature = signatures.get(call.id) ?? (needsSignature(model) ? skipSignature : undefined)
        parts.push({
          functionCall: { id: sentId(call.id), name: call.name, args: parseObject(call.arguments) },
          ...(signature ? { thoughtSignature: signature } : {}),
        })
      }
      return parts
    }
    case 'tool': {
      const value = parseJson(m.content)
      // Gemini wants an object; anything else goes under "output", the key it reads as the result.
      const response = isObject(value) ? value : { output: value ?? m.content }
      return [{ functionResponse: { id: sentId(m.tool_call_id), name: m.name, response } }]
    }
  }
}

function toCall(part: Part, signatures: BoundedMap<string, string>): ToolCall {
  const fc = part.functionCall ?? {}
  const id = fc.id || `${localIdPrefix}${randomUUID()}`
  if (part.thoughtSignature) signatures.set(id, part.thoughtSignature)
  return { id, name: fc.name ?? '', arguments: JSON.stringify(fc.args ?? {}) }
}

function sentId(id: string): string | undefined {
  return id && !id.startsWith(localIdPrefix) ? id : undefined
}

/** Gemini 3 and later validate thought signatures on replayed function calls. */
function needsSignature(model: string): boolean {
  const major = /^(?:models\/)?gemini-(\d+)/.exec(model)?.[1]
  return major !== undefined && Number(major) >= 3
}

/** In OpenAI's words, which the rest of the app already knows. */
function finishReason(reason: string | null, calledTools: boolean): string | null {
  if (calledTools) return 'tool_calls'
  if (reason === 'STOP') return 'stop'
  if (reason === 'MAX_TOKENS') return 'length'
  return reason ? reason.toLowerCase() : null
}

function mapError(e: unknown, model: string, call: Omit<FailedCall, 'provider'>): LlmError {
  return callFailure(e, { provider: 'gemini', ...call }, (e) =>
    e instanceof ApiError ? fromApiError(e, model) : undefined,
  )
}

/** What Google answered, in our words. */
function fromApiError(e: ApiError, model: string): LlmError {
  const body = googleError(e.message)
  // Google answers a wrong key with 400 INVALID_ARGUMENT, not 401; only the reason tells it apart.
  if (body.reason === 'API_KEY_INVALID' || /API key not valid/i.test(body.message ?? '')) {
    return new LlmError('auth', 'invalid API key for Gemini')
  }
  return fromStatus('gemini', e.status, model, body.message, body.retryAfterMs)
}

/** The SDK puts Google's JSON error body into ApiError's message (sometimes after a "got status: …" prefix). */
function googleError(text: string): { message?: string; reason?: string; retryAfterMs: number | null } {
  const parsed = parseJson(text.slice(Math.max(0, text.indexOf('{'))))
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : {}
  const details = Array.isArray(error.details) ? error.details.filter(isObject) : []
  const reason = details.find((d) => typeof d.reason === 'string')?.reason as string | undefined
  // RetryInfo says how long to wait as "1.5s"; Retry-After headers are not exposed by the SDK.
  const delay = details.find((d) => typeof d.retryDelay === 'string')?.retryDelay as string | undefined
  const seconds = delay ? Number.parseFloat(delay) : NaN
  return {
    message: typeof error.message === 'string' ? error.message : undefined,
    reason,
    retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : null,
  }
}

/** A Map that forgets its oldest entries, so a long-running app does not keep every signature. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super()
  }

  override set(key: K, value: V): this {
    super.set(key, value)
    if (this.size > this.limit) this.delete(this.keys().next().value as K)
    return this
  }
}
