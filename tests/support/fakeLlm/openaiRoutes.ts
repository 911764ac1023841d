// OpenAI-compatible routes under /v1: chat completions (plain and SSE), embeddings, images, models.

import { bodyObject, knownModels, type Context } from './context'
import { dimensionsFrom, embed, toBase64Floats } from './embeddings'
import { imageGenerations } from './openaiImages'
import { beginCall, modelInBody, sendFailure } from './respond'
import { countTokens, replyFor, type Reply } from './scripts'
import { sendJson, sse, streamFrames, type Frame } from './stream'
import { openaiResponseFormatError } from './structured'

const created = 1_700_000_000

export async function handleOpenai(ctx: Context): Promise<void> {
  const { req, url } = ctx
  // Picture links are pre-signed storage URLs: they take no key.
  if (req.method === 'GET' && ctx.links.serve(url.pathname, ctx.res)) return
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() ?? null
  if (bearer !== ctx.config.openaiKey) return sendFailure(ctx, 'openai', { kind: 'bad_key', key: bearer })

  const path = url.pathname.replace(/\/+$/, '')
  if (req.method === 'POST' && path === '/v1/chat/completions') return chatCompletions(ctx)
  if (req.method === 'POST' && path === '/v1/embeddings') return embeddings(ctx)
  if (req.method === 'POST' && path === '/v1/images/generations') return imageGenerations(ctx)
  if (req.method === 'GET' && path === '/v1/models') {
    return sendJson(ctx.res, 200, { object: 'list', data: knownModels(ctx, 'openai').map(modelEntry) })
  }
  const one = /^\/v1\/models\/(.+)$/.exec(path)
  if (req.method === 'GET' && one?.[1]) {
    const id = decodeURIComponent(one[1])
    if (!knownModels(ctx, 'openai').includes(id))
      return sendFailure(ctx, 'openai', { kind: 'model_not_found', model: id })
    return sendJson(ctx.res, 200, modelEntry(id))
  }
  sendFailure(ctx, 'openai', { kind: 'no_route', method: req.method ?? 'GET', path: url.pathname })
}

const modelEntry = (id: string) => ({ id, object: 'model', created, owned_by: 'fake-llm' })

async function chatCompletions(ctx: Context): Promise<void> {
  const body = bodyObject(ctx)
  const model = modelInBody(ctx)
  if (!model) return sendFailure(ctx, 'openai', { kind: 'bad_request', message: 'you must provide a model parameter' })
  if (!Array.isArray(body.messages)) {
    return sendFailure(ctx, 'openai', { kind: 'bad_request', message: "Missing required parameter: 'messages'." })
  }
  const format = openaiResponseFormatError(ctx)
  if (format) return sendFailure(ctx, 'openai', { kind: 'bad_request', ...format })
  const streaming = body.stream === true
  const rule = await beginCall(ctx, {
    provider: 'openai',
    model,
    endpoint: 'chat',
    streaming,
    prompt: lastUserText(body.messages),
  })
  if (rule === undefined) return

  const reply = replyFor(ctx, rule, lastUserText(body.messages))
  const usage = usageOf(body.messages, body.tools, reply, rule?.promptTokenScale ?? 1)
  const id = ctx.nextId('chatcmpl-fake-')
  const finishReason = reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'

  if (!streaming) {
    const toolCalls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argsJson },
    }))
    const message = {
      role: 'assistant',
      content: reply.text === '' && toolCalls.length > 0 ? null : reply.text,
      refusal: null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    }
    return sendJson(ctx.res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
      system_fingerprint: 'fp_fake',
    })
  }

  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined
  const includeUsage = streamOptions?.include_usage === true
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    })
  const frames: Frame[] = [{ kind: 'head', data: chunk({ role: 'assistant', content: '', refusal: null }) }]
  for (const text of reply.chunks) frames.push({ kind: 'delta', data: chunk({ content: text }) })
  reply.toolCalls.forEach((call, index) => {
    const opening = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }
    frames.push({ kind: 'delta', data: chunk({ tool_calls: [opening] }) })
    for (const part of fragments(call.argsJson)) {
      frames.push({ kind: 'delta', data: chunk({ tool_calls: [{ index, function: { arguments: part } }] }) })
    }
  })
  frames.push({ kind: 'tail', data: chunk({}, finishReason) })
  if (includeUsage) {
    const usageChunk = { id, object: 'chat.completion.chunk', created, model, choices: [], usage }
    frames.push({ kind: 'tail', data: sse(usageChunk) })
  }
  frames.push({ kind: 'tail', data: 'data: [DONE]\n\n' })
  await streamFrames(ctx, 'text/event-stream; charset=utf-8', frames, rule)
}

async function embeddings(ctx: Context): Promise<void> {
  const body = bodyObject(ctx)
  const model = modelInBody(ctx)
  if (!model) return sendFailure(ctx, 'openai', { kind: 'bad_request', message: 'you must provide a model parameter' })
  const inputs = embeddingInputs(body.input)
  if (!inputs) {
    return sendFailure(ctx, 'openai', { kind: 'bad_request', message: "'input' must be a string or an array." })
  }
  const rule = await beginCall(ctx, { provider: 'openai', model, endpoint: 'embed', streaming: false })
  if (rule === undefined) return
  const size = dimensionsFrom(body.dimensions, ctx.config.embeddingDimensions)
  // The openai SDK asks for base64 unless the caller chose a format, and decodes it itself.
  const base64 = body.encoding_format === 'base64'
  const data = inputs.map((text, index) => {
    const vector = embed(model, text, size, ctx.config.meanings)
    return { object: 'embedding', index, embedding: base64 ? toBase64Floats(vector) : vector }
  })
  const tokens = inputs.reduce((sum, text) => sum + countTokens(text), 0)
  sendJson(ctx.res, 200, { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } })
}

/** string | string[] | token ids | token id arrays → one text per vector. */
function embeddingInputs(input: unknown): string[] | null {
  if (typeof input === 'string') return [input]
  if (!Array.isArray(input) || input.length === 0) return null
  if (input.every((item) => typeof item === 'number')) return [input.join(' ')]
  if (input.every((item) => typeof item === 'string')) return input as string[]
  if (input.every((item) => Array.isArray(item))) return input.map((ids: unknown[]) => ids.join(' '))
  return null
}

function lastUserText(messages: unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: unknown; content?: unknown } | null
    if (message?.role === 'user') return textOf(message.content)
  }
  return ''
}

/** The text of a message content: a string, or the text parts of a parts array (images skipped). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((part: { type?: unknown; text?: unknown }) => part?.type === 'text' && typeof part.text === 'string')
    .map((part: { text: string }) => part.text)
    .join('\n')
}

/** Prompt tokens as a provider counts them: the messages' text and the tools offered. */
function usageOf(messages: unknown[], tools: unknown, reply: Reply, scale: number) {
  const text = messages.reduce<number>((sum, m) => sum + countTokens(textOf((m as { content?: unknown })?.content)), 0)
  const promptTokens = Math.round(scale * (text + (Array.isArray(tools) ? countTokens(JSON.stringify(tools)) : 0)))
  const completionTokens = countTokens(reply.text + reply.toolCalls.map((c) => c.name + c.argsJson).join(''))
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  }
}

/** Tool-call arguments arrive in pieces, as real streams send them: up to three per call. */
function fragments(text: string): string[] {
  if (!text) return []
  const size = Math.max(1, Math.ceil(text.length / 3))
  const parts: string[] = []
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size))
  return parts
}
