import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiChatRequest, type ApiToken } from '@shared/contract'
import { toErrorValue, type ErrorCode, type ErrorValue } from '@shared/errors'
import type { EventBus } from '../kernel/events'
import { describeIssues, type Router } from '../kernel/router'
import { streamChat } from './apiChat'
import { matchRoute } from './apiRoutes'
import { bearerToken, checkPlace, tokensEqual, type Refusal } from './auth'
import { openApiDocument } from './openApi'
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rateLimit'
import { readJsonBody } from './requestBody'
import { TurnsByKey } from './turnsByKey'

export interface HttpApiOptions {
  router: Router
  bus: EventBus
  /** The live API token a request presents (counted as a call), or null. */
  useToken: (presented: string) => ApiToken | null
  /** The windows' access token (as it is now: it can be renewed), which is refused here: programs get tokens of their own. */
  uiToken: () => string
  rateLimits?: RateLimits
  version: string
  /** The memory server over Streamable HTTP at /api/mcp (serve's); absent: that path is not found. */
  mcp?: McpEndpoint
}

/** Serves one MCP request that has passed every check below (Host, Origin, API token, rate, body). */
export type McpEndpoint = (req: IncomingMessage, res: ServerResponse, body: unknown, token: ApiToken) => Promise<void>

const STATUS: Partial<Record<ErrorCode, number>> = {
  bad_input: 400,
  bad_request: 400,
  bad_file: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  cycle: 409,
  unavailable: 503,
  llm_not_configured: 503,
  llm_rate_limited: 429,
  internal: 500,
}

/**
 * The local HTTP API under `/api/` (seed 004). Every refusal — Host, Origin, token, rate, size,
 * JSON, schema — happens here, before any handler runs; what passes goes through the router.
 */
export function httpApi(options: HttpApiOptions) {
  const limiter = new RateLimiter(options.rateLimits ?? DEFAULT_RATE_LIMITS)
  const turns = new TurnsByKey()

  return async function handle(req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
    const authorized = authorizeApi(req, port, options)
    if ('status' in authorized) return fail(res, authorized.status, 'forbidden', authorized.reason)
    const { token } = authorized
    const wait = limiter.take(token.id)
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait))
      return fail(res, 429, 'unavailable', `too many requests from "${token.name}"; try again in ${wait} s`)
    }

    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const matched = matchRoute(req.method ?? 'GET', url.pathname)
    if (!matched) return fail(res, 404, 'not_found', `no endpoint ${url.pathname}; see /api/openapi.json`)
    if ('verbs' in matched) {
      res.setHeader('Allow', matched.verbs.join(', '))
      return fail(res, 405, 'bad_request', `${url.pathname} takes ${matched.verbs.join(' or ')}, not ${req.method}`)
    }
    const { route, params } = matched
    let body: unknown = undefined
    if (route.verb !== 'GET') {
      const read = await readJsonBody(req)
      // The rest of an oversized body is never read: the connection closes after the answer.
      if (!read.ok && read.status === 413) res.setHeader('Connection', 'close')
      if (!read.ok) return fail(res, read.status, 'bad_request', read.message)
      body = read.json
    }

    if (route.path === '/api/mcp') {
      if (!options.mcp) return fail(res, 404, 'not_found', 'this host offers no MCP server')
      try {
        await options.mcp(req, res, body, token)
      } catch (e) {
        if (!res.headersSent) return failWith(res, toErrorValue(e))
      }
      return
    }
    if (route.path === '/api/openapi.json') return sendJson(res, 200, openApiDocument(options.version))
    if (route.path === '/api/chat') {
      const parsed = ApiChatRequest.safeParse(body)
      if (!parsed.success) return fail(res, 400, 'bad_input', describeIssues('chat', parsed.error))
      try {
        await streamChat({ router: options.router, bus: options.bus, turns }, parsed.data, req, res)
      } catch (e) {
        // Refused before the stream began (unknown persona or flow, no model set up…).
        if (!res.headersSent) return failWith(res, toErrorValue(e))
      }
      return
    }
    const result = await options.router.call(route.method!, route.input!({ params, query: url.searchParams, body }), {
      transport: 'http',
    })
    return result.ok ? sendJson(res, 200, result.value) : failWith(res, result.error)
  }
}

/**
 * Whether a request may use the API: Host and Origin as for windows, then an API token given as
 * `Authorization: Bearer` (counted as one call). The window's launch token is not one.
 */
export function authorizeApi(
  req: IncomingMessage,
  port: number,
  options: Pick<HttpApiOptions, 'uiToken' | 'useToken'>,
): { token: ApiToken } | Refusal {
  const place = checkPlace(req, port)
  if (place) return place
  const presented = bearerToken(req.headers.authorization)
  if (!presented)
    return {
      status: 401,
      reason: 'missing API token: send "Authorization: Bearer <token>" (Settings → Connected programs)',
    }
  if (tokensEqual(presented, options.uiToken()))
    return {
      status: 401,
      reason: "that is the window's launch token, not an API token: make one in Settings → Connected programs",
    }
  const token = options.useToken(presented)
  return token ? { token } : { status: 401, reason: 'unknown or revoked API token' }
}

function failWith(res: ServerResponse, error: ErrorValue): void {
  fail(res, STATUS[error.code] ?? (error.code.startsWith('llm_') ? 502 : 400), error.code, error.message)
}

function fail(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  sendJson(res, status, { error: { code, message } })
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) return
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
  res.end(JSON.stringify(value))
}
