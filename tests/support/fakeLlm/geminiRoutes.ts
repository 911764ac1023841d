// Gemini Developer API routes as @google/genai calls them: /v1beta/models/{model}:{method}.

import { bodyObject, isKnownModel, knownModels, type Context } from './context'
import { dimensionsFrom, embed } from './embeddings'
import { answerPicture, drawsPictures, wantsPicture } from './geminiImages'
import { beginCall, sendFailure } from './respond'
import { countTokens, replyFor } from './scripts'
import { sendJson, sse, streamFrames, type Frame } from './stream'
import { geminiResponseSchemaError } from './structured'

/** Versions a client may put in `httpOptions.apiVersion`; the SDK's default is v1beta. */
export const geminiPath = /^\/(v1beta|v1alpha|v1)\/models(?:\/([^/:]+))?(?::([A-Za-z]+))?$/

export async function handleGemini(ctx: Context): Promise<void> {
  const { req, url } = ctx
  const key = (req.headers['x-goog-api-key'] as string | undefined) ?? url.searchParams.get('key')
  if (key !== ctx.config.geminiKey) return sendFailure(ctx, 'gemini', { kind: 'bad_key', key: key ?? null })

  const [, , rawModel, method] = geminiPath.exec(url.pathname) ?? []
  const model = rawModel ? decodeURIComponent(rawModel) : undefined
  if (req.method === 'GET' && !model && !method) {
    return sendJson(ctx.res, 200, { models: knownModels(ctx, 'gemini').map(modelEntry) })
  }
  if (req.method === 'GET' && model && !method) {
    if (!knownModels(ctx, 'gemini').includes(model)) {
      return sendFailure(ctx, 'gemini', { kind: 'model_not_found', model, method: 'get' })
    }
    return sendJson(ctx.res, 200, modelEntry(model))
  }
  if (req.method === 'POST' && model && method) {
    if (method === 'generateContent') return generate(ctx, model, false)
    if (method === 'streamGenerateContent') return generate(ctx, model, true)
    if (method === 'embedContent') return embedOne(ctx, model)
    if (method === 'batchEmbedContents') return embedBatch(ctx, model)
    if (method === 'countTokens') return countContentTokens(ctx, model)
  }
  sendFailure(ctx, 'gemini', { kind: 'no_route', method: req.method ?? 'GET', path: url.pathname })
}

function modelEntry(id: string) {
  const embedding = id.includes('embedding')
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: 'A model served by the fake LLM server.',
    inputTokenLimit: embedding ? 2048 : 1_048_576,
    outputTokenLimit: embedding ? 1 : 65_536,
    supportedGenerationMethods: embedding
      ? ['embedContent', 'batchEmbedContents']
      : ['generateContent', 'countTokens', 'streamGenerateContent'],
  }
}

interface Content {
  role?: string
  parts?: Array<{ text?: unknown }>
}

async function generate(ctx: Context, model: string, streaming: boolean): Promise<void> {
  const body = bodyObject(ctx)
  const method = streaming ? 'streamGenerateContent' : 'generateContent'
  if (!Array.isArray(body.contents) || body.contents.length === 0) {
    return sendFailure(ctx, 'gemini', {
      kind: 'bad_request',
      message: '* GenerateContentRequest.contents: contents is not specified',
    })
  }
  const schemaError = geminiResponseSchemaError(ctx)
  if (schemaError) return sendFailure(ctx, 'gemini', { kind: 'bad_request', message: schemaError })
  const contents = body.contents as Content[]
  const picture = wantsPicture(body)
  if (picture && isKnownModel(ctx, 'gemini', model) && !drawsPictures(model)) {
    return sendFailure(ctx, 'gemini', {
      kind: 'bad_request',
      message: 'Model does not support the requested response modalities: image',
    })
  }
  const prompt = lastUserText(contents)
  const endpoint = picture ? 'image' : 'chat'
  const rule = await beginCall(ctx, { provider: 'gemini', model, endpoint, streaming, method, prompt })
  if (rule === undefined) return

  const promptTokenCount = contents.reduce((sum, c) => sum + countTokens(textOf(c)), 0)
  if (picture) return answerPicture(ctx, { model, prompt, promptTokenCount, streaming, rule })
  const reply = replyFor(ctx, rule, prompt)
  const candidatesTokenCount = countTokens(reply.text + reply.toolCalls.map((c) => c.name + c.argsJson).join(''))
  const usageMetadata = {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
  }
  const responseId = ctx.nextId('fake-response-')
  const callParts = reply.toolCalls.map((call) => ({ functionCall: { name: call.name, args: call.args } }))
  const response = (parts: unknown[], finish?: 'STOP') => ({
    candidates: [{ content: { parts, role: 'model' }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
    ...(finish ? { usageMetadata } : {}),
    modelVersion: model,
    responseId,
  })

  if (!streaming) {
    const textParts = reply.text !== '' || callParts.length === 0 ? [{ text: reply.text }] : []
    return sendJson(ctx.res, 200, response([...textParts, ...callParts], 'STOP'))
  }
  // Google's SSE separates events with CRLF CRLF; the SDK accepts that and plain LF LF.
  const event = (payload: unknown) => sse(payload, '\r\n\r\n')
  const frames: Frame[] = [
    ...reply.chunks.map((text): Frame => ({ kind: 'delta', data: event(response([{ text }])) })),
    ...callParts.map((part): Frame => ({ kind: 'delta', data: event(response([part])) })),
    { kind: 'tail', data: event(response([{ text: '' }], 'STOP')) },
  ]
  await streamFrames(ctx, 'text/event-stream', frames, rule)
}

async function embedOne(ctx: Context, model: string): Promise<void> {
  const body = bodyObject(ctx)
  if (!body.content || typeof body.content !== 'object') {
    return sendFailure(ctx, 'gemini', {
      kind: 'bad_request',
      message: '* EmbedContentRequest.content: content is not specified',
    })
  }
  const rule = await beginCall(ctx, {
    provider: 'gemini',
    model,
    endpoint: 'embed',
    streaming: false,
    method: 'embedContent',
  })
  if (rule === undefined) return
  const size = dimensionsFrom(body.outputDimensionality, ctx.config.embeddingDimensions)
  sendJson(ctx.res, 200, {
    embedding: { values: embed(model, textOf(body.content as Content), size, ctx.config.meanings) },
  })
}

/** What `ai.models.embedContent` calls: one request per content, answered in order. */
async function embedBatch(ctx: Context, model: string): Promise<void> {
  const requests = bodyObject(ctx).requests
  if (!Array.isArray(requests) || requests.length === 0) {
    return sendFailure(ctx, 'gemini', {
      kind: 'bad_request',
      message: '* BatchEmbedContentsRequest.requests: requests is not specified',
    })
  }
  const rule = await beginCall(ctx, {
    provider: 'gemini',
    model,
    endpoint: 'embed',
    streaming: false,
    method: 'batchEmbedContents',
  })
  if (rule === undefined) return
  const embeddings = (requests as Array<{ content?: Content; outputDimensionality?: unknown }>).map((request) => ({
    values: embed(
      model,
      textOf(request.content ?? {}),
      dimensionsFrom(request.outputDimensionality, ctx.config.embeddingDimensions),
      ctx.config.meanings,
    ),
  }))
  sendJson(ctx.res, 200, { embeddings })
}

/** Counting is not a generation: it answers from the request alone and takes no rule. */
function countContentTokens(ctx: Context, model: string): void {
  if (!knownModels(ctx, 'gemini').includes(model)) {
    return sendFailure(ctx, 'gemini', { kind: 'model_not_found', model, method: 'countTokens' })
  }
  const contents = bodyObject(ctx).contents
  const list = Array.isArray(contents) ? (contents as Content[]) : []
  sendJson(ctx.res, 200, { totalTokens: list.reduce((sum, c) => sum + countTokens(textOf(c)), 0) })
}

function lastUserText(contents: Content[]): string {
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i]
    if (content && (content.role ?? 'user') === 'user') return textOf(content)
  }
  return ''
}

/** The text parts of a content joined (inline images and function parts skipped). */
function textOf(content: Content): string {
  return (content.parts ?? [])
    .map((part) => (typeof part?.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n')
}
