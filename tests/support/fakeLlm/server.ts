// The HTTP server: reads and records each request, then hands it to the provider that owns the path.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Config, Context } from './context'
import { geminiPath, handleGemini } from './geminiRoutes'
import { handleOllama } from './ollamaRoutes'
import { handleOpenai } from './openaiRoutes'
import { pictureLinkPrefix, type PictureLinks } from './pictures'
import type { RuleBook } from './scripts'
import { cut, sendJson } from './stream'
import type { Provider, RecordedRequest } from './types'

/** Large enough for a few inline images, small enough to bound memory. */
const maxBodyBytes = 32 * 1024 * 1024
const secretHeaders = new Set(['authorization', 'x-goog-api-key'])

export interface ServerParts {
  rules: RuleBook
  config: Config
  /** Where requests are recorded; null keeps none. */
  requests: RecordedRequest[] | null
  /** Aborted by close(): every pending wait and stream stops. */
  closing: AbortSignal
  nextId: (prefix: string) => string
  links: PictureLinks
}

export function createFakeServer(parts: ServerParts): Server {
  return createServer((req, res) => {
    serve(req, res, parts).catch(() => {
      if (res.headersSent) cut(res)
      else sendJson(res, 500, { error: { message: 'fake LLM server failed' } })
    })
  })
}

async function serve(req: IncomingMessage, res: ServerResponse, parts: ServerParts): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const provider = providerFor(req.method ?? 'GET', url.pathname)
  const body = await readBody(req)
  if (body === tooLarge) return sendJson(res, 413, { error: { message: 'request body too large' } })

  parts.requests?.push(record(req, url, provider, body))
  const gone = new AbortController()
  res.once('close', () => gone.abort())
  const signal = AbortSignal.any([parts.closing, gone.signal])
  const { rules, config, nextId, links } = parts
  const ctx: Context = { req, res, url, body, signal, rules, config, nextId, links }

  if (provider === 'openai') return handleOpenai(ctx)
  if (provider === 'gemini') return handleGemini(ctx)
  if (provider === 'ollama') return handleOllama(ctx)
  sendJson(res, 404, { error: { message: `no fake provider serves ${url.pathname}` } })
}

/**
 * /v1beta and /v1alpha are Gemini; /v1 is OpenAI except Gemini's `models/{m}:{method}` form, and so
 * are OpenAI's picture links; / and /api are Ollama.
 */
function providerFor(method: string, path: string): Provider | 'unknown' {
  if (path.startsWith(pictureLinkPrefix)) return 'openai'
  if (path.startsWith('/v1beta/') || path.startsWith('/v1alpha/')) return 'gemini'
  if (path === '/v1' || path.startsWith('/v1/')) {
    const gemini = geminiPath.exec(path)
    return gemini?.[3] && method === 'POST' ? 'gemini' : 'openai'
  }
  if (path === '/' || path === '/api' || path.startsWith('/api/')) return 'ollama'
  return 'unknown'
}

const tooLarge = Symbol('too large')

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBodyBytes) return tooLarge
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

function record(req: IncomingMessage, url: URL, provider: Provider | 'unknown', body: unknown): RecordedRequest {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || secretHeaders.has(name)) continue
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const query: Record<string, string> = {}
  for (const [name, value] of url.searchParams) if (name !== 'key') query[name] = value
  const entry: RecordedRequest = { provider, method: req.method ?? 'GET', path: url.pathname, query, headers, body }
  const model = modelOf(provider, url.pathname, body)
  if (model) entry.model = model
  return entry
}

function modelOf(provider: Provider | 'unknown', path: string, body: unknown): string | undefined {
  if (provider === 'gemini') {
    const name = geminiPath.exec(path)?.[2]
    return name ? decodeURIComponent(name) : undefined
  }
  const model = (body as { model?: unknown } | null)?.model
  return typeof model === 'string' ? model : undefined
}
