import OpenAI from 'openai'
import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import type { ImageGenerateParamsNonStreaming } from 'openai/resources/images'
import { callSignal } from './callSignal'
import { deadline } from './deadline'
import { toGeneratedImage } from './generatedImage'
import { withIdleTimeout } from './idle'
import { poolFetch } from './poolFetch'
import { LlmError, callFailure, fromStatus, parseRetryAfter, serverName } from './llmError'
import type {
  ChatEvent,
  ChatMessage,
  ChatRequest,
  Connector,
  EmbedRequest,
  GeneratedImage,
  ImageRequest,
  ModelInfo,
  ProviderId,
} from './types'

export interface OpenAiConfig {
  provider: Extract<ProviderId, 'openai' | 'openrouter'>
  apiKey: string
  baseURL: string
  /** Until the response starts. */
  connectTimeoutMs?: number
  /** Longest silence allowed inside a streaming reply. */
  idleTimeoutMs?: number
  /** Until a generated picture arrives: image models answer only once the picture is done. */
  imageTimeoutMs?: number
}

/** OpenAI and every server that speaks its chat-completions API (OpenRouter, LM Studio, vLLM, llama.cpp…). */
/** Which provider a call went to, and how to name its server in a message. */
interface Server {
  provider: ProviderId
  who: string
}

export function openaiConnector(config: OpenAiConfig): Connector {
  const { provider } = config
  const server: Server = { provider, who: serverName(provider, config.baseURL) }
  const idleMs = config.idleTimeoutMs ?? 60_000
  const imageMs = config.imageTimeoutMs ?? 180_000
  // The SDK's own retries are off: ours know not to retry once text has streamed.
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    maxRetries: 0,
    timeout: config.connectTimeoutMs ?? 30_000,
    fetch: poolFetch,
  })

  return {
    provider,

    async *chat(request: ChatRequest): AsyncGenerator<ChatEvent> {
      const call = callSignal(request.signal)
      try {
        yield* streamChat(request, call.signal)
      } finally {
        call.release()
      }
    },

    async embed(request: EmbedRequest): Promise<number[][]> {
      const call = callSignal(request.signal)
      try {
        const res = await client.embeddings.create(
          { model: request.model, input: request.input },
          { signal: call.signal },
        )
        return res.data.sort((a, b) => a.index - b.index).map((d) => d.embedding)
      } catch (e) {
        throw mapError(server, request.model, e, request.signal)
      } finally {
        call.release()
      }
    },

    async generateImage({ model, prompt, signal }: ImageRequest): Promise<GeneratedImage> {
      const call = callSignal(signal)
      try {
        return await drawImage(model, prompt, signal, call.signal)
      } finally {
        call.release()
      }
    },

    async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
      const call = callSignal(signal)
      try {
        const models: ModelInfo[] = []
        for await (const m of client.models.list({ signal: call.signal }))
          models.push({ id: m.id, ref: `${provider}:${m.id}` })
        return models.sort((a, b) => a.id.localeCompare(b.id))
      } catch (e) {
        throw mapError(server, '', e, signal)
      } finally {
        call.release()
      }
    },
  }

  /** `sdkSignal` is the per-call one the SDK may keep a listener on; `request.signal` tells a stop. */
  async function* streamChat(request: ChatRequest, sdkSignal: AbortSignal | undefined): AsyncGenerator<ChatEvent> {
    let stream
    try {
      stream = await client.chat.completions.create(
        {
          model: request.model,
          messages: request.messages.map(toOpenAi),
          stream: true,
          stream_options: { include_usage: true },
          temperature: request.temperature,
          max_tokens: request.maxTokens,
          tools: request.tools?.map(toTool),
          response_format: responseFormat(request),
        },
        { signal: sdkSignal },
      )
    } catch (e) {
      throw mapError(server, request.model, e, request.signal)
    }
    const calls = new Map<number, { id: string; name: string; arguments: string }>()
    let finish: string | null = null
    let usage: { prompt_tokens: number; completion_tokens: number } | null = null
    const silence = () => new LlmError('timeout', `${server.who} stopped sending for ${idleMs / 1000} s`)
    try {
      for await (const chunk of withIdleTimeout(stream, idleMs, () => (stream.controller.abort(), silence()))) {
        if (chunk.usage)
          usage = { prompt_tokens: chunk.usage.prompt_tokens, completion_tokens: chunk.usage.completion_tokens }
        const choice = chunk.choices[0]
        if (!choice) continue
        if (choice.delta?.content) yield { type: 'delta', text: choice.delta.content }
        for (const t of choice.delta?.tool_calls ?? []) {
          const call = calls.get(t.index) ?? { id: '', name: '', arguments: '' }
          if (t.id) call.id = t.id
          if (t.function?.name) call.name += t.function.name
          if (t.function?.arguments) call.arguments += t.function.arguments
          calls.set(t.index, call)
        }
        if (choice.finish_reason) finish = choice.finish_reason
      }
    } catch (e) {
      throw e instanceof LlmError ? e : mapError(server, request.model, e, request.signal)
    }
    // The SDK ends an aborted stream quietly; a stop must not look like a finished reply.
    if (request.signal?.aborted) throw new LlmError('aborted', 'stopped')
    for (const call of calls.values()) yield { type: 'tool_call', call }
    yield { type: 'done', usage, finish_reason: finish }
  }

  async function drawImage(
    model: string,
    prompt: string,
    signal: AbortSignal | undefined,
    sdkSignal: AbortSignal | undefined,
  ): Promise<GeneratedImage> {
    let image
    try {
      const body: ImageGenerateParamsNonStreaming = { model, prompt, n: 1 }
      // DALL·E answers with a link unless asked for base64; the GPT image models always answer
      // base64 and refuse `response_format` as an unknown parameter.
      if (isDallE(model)) body.response_format = 'b64_json'
      const res = await client.images.generate(body, { signal: sdkSignal, timeout: imageMs })
      image = res.data?.[0]
    } catch (e) {
      throw mapError(server, model, e, signal)
    }
    if (image?.b64_json) return toGeneratedImage(provider, model, image.b64_json)
    // Servers that copy the API may answer a link even so.
    if (image?.url) return toGeneratedImage(provider, model, await download(server, image.url, imageMs, signal))
    throw new LlmError('bad_request', `${model} answered without a picture`)
  }
}

function toOpenAi(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content }
    case 'user':
      return {
        role: 'user',
        content:
          typeof m.content === 'string'
            ? m.content
            : m.content.map((p) =>
                p.type === 'text'
                  ? { type: 'text', text: p.text }
                  : { type: 'image_url', image_url: { url: `data:${p.mime};base64,${p.data_base64}` } },
              ),
      }
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        tool_calls: m.tool_calls?.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      }
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content }
  }
}

function responseFormat(request: ChatRequest): ChatCompletionCreateParams['response_format'] {
  if (request.jsonSchema)
    return {
      type: 'json_schema',
      json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
    }
  return request.json ? { type: 'json_object' } : undefined
}

function toTool(t: { name: string; description: string; parameters: Record<string, unknown> }): ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }
}

/** `dall-e-3`, also behind a router prefix (`openai/dall-e-3`). */
function isDallE(model: string): boolean {
  return /(^|\/)dall-e-/.test(model)
}

/** The picture behind a link the provider answered, as base64. The link is pre-signed: it takes no key. */
async function download(server: Server, url: string, ms: number, signal?: AbortSignal): Promise<string> {
  const call = deadline(ms, signal)
  try {
    const res = await fetch(url, { signal: call.signal })
    if (!res.ok) {
      throw new LlmError('unavailable', `the picture ${server.who} made could not be fetched (${res.status})`)
    }
    return Buffer.from(await res.arrayBuffer()).toString('base64')
  } catch (e) {
    throw callFailure(e, { provider: server.provider, signal, timedOut: call.timedOut() })
  } finally {
    call.clear()
  }
}

function mapError(server: Server, model: string, e: unknown, signal?: AbortSignal): LlmError {
  const { provider, who } = server
  if (e instanceof LlmError) return e
  if (signal?.aborted || e instanceof OpenAI.APIUserAbortError) return new LlmError('aborted', 'stopped')
  if (e instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('timeout', `${who} did not answer in time`)
  if (e instanceof OpenAI.APIConnectionError) return new LlmError('unavailable', `could not reach ${who}`)
  if (e instanceof OpenAI.APIError) {
    const retryAfter = parseRetryAfter(e.headers?.get?.('retry-after'))
    const detail = (e.error as { message?: string } | undefined)?.message
    return fromStatus(provider, e.status, model, detail, retryAfter, who)
  }
  return new LlmError('unavailable', `${who}: ${e instanceof Error ? e.message : String(e)}`)
}
