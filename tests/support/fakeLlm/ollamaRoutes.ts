// Ollama's native API: /api/chat (NDJSON stream or one JSON), /api/tags, /api/embed. No auth.

import { createHash } from 'node:crypto'
import { bodyObject, knownModels, type Context } from './context'
import { dimensionsFrom, embed } from './embeddings'
import { beginCall, modelInBody, sendFailure } from './respond'
import { countTokens, replyFor } from './scripts'
import { ndjson, sendJson, streamFrames, type Frame } from './stream'
import { ollamaFormatError } from './structured'

export async function handleOllama(ctx: Context): Promise<void> {
  const { req, url, res } = ctx
  const path = url.pathname.replace(/\/+$/, '') || '/'
  if (req.method === 'GET' && path === '/') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    return void res.end('Ollama is running')
  }
  if (req.method === 'GET' && path === '/api/version') return sendJson(res, 200, { version: '0.12.0' })
  if (req.method === 'GET' && path === '/api/tags') {
    return sendJson(res, 200, { models: knownModels(ctx, 'ollama').map(tagEntry) })
  }
  if (req.method === 'POST' && path === '/api/chat') return chat(ctx)
  if (req.method === 'POST' && path === '/api/embed') return embedMany(ctx)
  if (req.method === 'POST' && path === '/api/embeddings') return embedLegacy(ctx)
  sendFailure(ctx, 'ollama', { kind: 'no_route', method: req.method ?? 'GET', path: url.pathname })
}

function tagEntry(name: string) {
  const fullName = name.includes(':') ? name : `${name}:latest`
  return {
    name: fullName,
    model: fullName,
    modified_at: '2025-01-01T00:00:00Z',
    size: 2_019_393_189,
    digest: createHash('sha256').update(fullName).digest('hex'),
    details: {
      parent_model: '',
      format: 'gguf',
      family: 'llama',
      families: ['llama'],
      parameter_size: '3.2B',
      quantization_level: 'Q4_K_M',
    },
  }
}

interface Message {
  role?: unknown
  content?: unknown
}

async function chat(ctx: Context): Promise<void> {
  const body = bodyObject(ctx)
  const model = modelInBody(ctx)
  if (!model) return sendFailure(ctx, 'ollama', { kind: 'bad_request', message: 'model is required' })
  const formatError = ollamaFormatError(ctx)
  if (formatError) return sendFailure(ctx, 'ollama', { kind: 'bad_request', message: formatError })
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : []
  // Ollama streams unless told `stream: false`.
  const streaming = body.stream !== false
  const rule = await beginCall(ctx, {
    provider: 'ollama',
    model,
    endpoint: 'chat',
    streaming,
    prompt: lastUserText(messages),
  })
  if (rule === undefined) return

  const reply = replyFor(ctx, rule, lastUserText(messages))
  const promptEvalCount = Math.round(
    (rule?.promptTokenScale ?? 1) *
      (messages.reduce((sum, m) => sum + countTokens(typeof m?.content === 'string' ? m.content : ''), 0) +
        (Array.isArray(body.tools) ? countTokens(JSON.stringify(body.tools)) : 0)),
  )
  const evalCount = countTokens(reply.text + reply.toolCalls.map((c) => c.name + c.argsJson).join(''))
  // Durations are nanoseconds, fixed per token so tests can assert rates.
  const stats = {
    total_duration: 1_000_000 + promptEvalCount * 1_000_000 + evalCount * 20_000_000,
    load_duration: 1_000_000,
    prompt_eval_count: promptEvalCount,
    prompt_eval_duration: promptEvalCount * 1_000_000,
    eval_count: evalCount,
    eval_duration: evalCount * 20_000_000,
  }
  const toolCalls = reply.toolCalls.map((call, index) => ({
    id: call.id,
    function: { index, name: call.name, arguments: call.args },
  }))
  const line = (message: Record<string, unknown>, done: boolean) => ({
    model,
    created_at: new Date().toISOString(),
    message: { role: 'assistant', ...message },
    ...(done ? { done_reason: 'stop', done: true, ...stats } : { done: false }),
  })

  if (!streaming) {
    const message = { content: reply.text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }
    return sendJson(ctx.res, 200, line(message, true))
  }
  const frames: Frame[] = [
    ...reply.chunks.map((content): Frame => ({ kind: 'delta', data: ndjson(line({ content }, false)) })),
    ...toolCalls.map((call): Frame => ({
      kind: 'delta',
      data: ndjson(line({ content: '', tool_calls: [call] }, false)),
    })),
    { kind: 'tail', data: ndjson(line({ content: '' }, true)) },
  ]
  await streamFrames(ctx, 'application/x-ndjson', frames, rule)
}

async function embedMany(ctx: Context): Promise<void> {
  const body = bodyObject(ctx)
  const model = modelInBody(ctx)
  if (!model) return sendFailure(ctx, 'ollama', { kind: 'bad_request', message: 'model is required' })
  const input = body.input
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : null
  if (!texts || !texts.every((text) => typeof text === 'string')) {
    return sendFailure(ctx, 'ollama', { kind: 'bad_request', message: 'invalid input type' })
  }
  const rule = await beginCall(ctx, { provider: 'ollama', model, endpoint: 'embed', streaming: false })
  if (rule === undefined) return
  const size = dimensionsFrom(body.dimensions, ctx.config.embeddingDimensions)
  sendJson(ctx.res, 200, {
    model,
    embeddings: (texts as string[]).map((text) => embed(model, text, size, ctx.config.meanings)),
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: (texts as string[]).reduce((sum, text) => sum + countTokens(text), 0),
  })
}

/** The older single-prompt endpoint some clients still call. */
async function embedLegacy(ctx: Context): Promise<void> {
  const body = bodyObject(ctx)
  const model = modelInBody(ctx)
  if (!model) return sendFailure(ctx, 'ollama', { kind: 'bad_request', message: 'model is required' })
  const rule = await beginCall(ctx, { provider: 'ollama', model, endpoint: 'embed', streaming: false })
  if (rule === undefined) return
  const prompt = typeof body.prompt === 'string' ? body.prompt : ''
  sendJson(ctx.res, 200, { embedding: embed(model, prompt, ctx.config.embeddingDimensions, ctx.config.meanings) })
}

function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role === 'user') return typeof message.content === 'string' ? message.content : ''
  }
  return ''
}
