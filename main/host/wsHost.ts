import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocket, WebSocketServer } from 'ws'
import type { Flow, FlowPatch } from '@shared/contract'
import type { WireEvent } from '@shared/wire'
import { TOKEN_COOKIE, checkRequest, presentedToken, type Refusal } from './auth'
import type { EventBus } from '../kernel/events'
import type { Router } from '../kernel/router'
import { flowsNamedInEvent } from './eventFlows'
import { EVENTS_STREAM_PATH, streamEvents } from './eventStream'
import { authorizeApi, httpApi, type HttpApiOptions } from './httpApi'
import { staleTokenLanguage, staleTokenPage, wantsPage } from './staleTokenPage'
import { seedFlowUpdates } from './seedFlowUpdates'
import { resolveStatic, sendFile } from './staticFiles'
import { WireSession, type EventFlows } from './wireSession'

export interface HostOptions {
  router: Router
  bus: EventBus
  token: string
  /** 0 picks a free port. */
  port: number
  /** The built renderer; null serves the API only. */
  staticDir: string | null
  /** The HTTP API for other programs under /api/ (their tokens, rate limits); absent: none. */
  api?: Omit<HttpApiOptions, 'router' | 'bus' | 'uiToken'>
  /** Which flows an event is about, for subscriptions to one flow; default: those its data names. */
  eventFlows?: EventFlows
  /** A flow whole, for the seed's clients subscribed to `flow_updated`; absent: they hear none. */
  wholeFlow?: (flowId: string) => Flow | null
  log?: (message: string) => void
}

export interface Host {
  port: number
  /** The address to open, with the current token. */
  readonly url: string
  /**
   * Renews the windows' token: windows connected with the old one are disconnected (after any
   * answer already on its way), and a page or reload with it gets the "out of date" page.
   */
  setToken(token: string): void
  close(): Promise<void>
}

/**
 * The largest WebSocket message the host takes (64 MiB): large enough for images dropped into
 * a chat, small enough that one message cannot exhaust memory. A bigger one closes that
 * connection with 1009 and the reason below (README, Browser mode).
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024
const HEARTBEAT_MS = 30_000
/** `/ws` is ours; `/` is where the VizPrompt seed's clients connect (`ws://localhost:8080`). */
const WS_PATHS = new Set(['/ws', '/'])

/** Close reasons for the codes ws closes a connection with on a bad frame (it sends none itself). */
const CLOSE_REASONS: Record<number, string> = {
  1002: 'protocol error: malformed WebSocket frame',
  1007: 'invalid UTF-8 in a text message',
  1009: `message too big: the limit is ${MAX_MESSAGE_BYTES / (1024 * 1024)} MiB`,
}

/**
 * ws closes a connection that sent a bad frame with the right code (1002, 1007, 1009) but an
 * empty reason; this socket adds one, so a client learns, for instance, what the size limit is.
 */
class HostSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer): void {
    super.close(code, reason ?? (code === undefined ? undefined : CLOSE_REASONS[code]))
  }
}

/**
 * The loopback host behind browser mode, e2e tests and scripts: the renderer over HTTP and
 * the router over `ws://127.0.0.1:<port>/ws`. Every request passes `checkRequest` first.
 */
export async function startHost(options: HostOptions): Promise<Host> {
  const { router, bus } = options
  let token = options.token
  const log = options.log ?? (() => {})
  let port = options.port
  const cookieName = () => `${TOKEN_COOKIE}_${port}` // cookies ignore ports; two hosts must not share one

  const uiToken = () => token
  const api = options.api ? httpApi({ ...options.api, router, bus, uiToken }) : null
  const server = createServer((req, res) => {
    if (api && (req.url ?? '').startsWith('/api/')) {
      // The HTTP API checks Host, Origin and its own tokens (never the window's) itself.
      api(req, res, port).catch((e: unknown) => {
        log(`[host] API request failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
        if (!res.headersSent) res.writeHead(500).end()
        else res.end()
      })
      return
    }
    const refusal = checkRequest(withCookie(req, cookieName()), port, token)
    if (refusal) return refuseHttp(req, res, refusal)
    serveHttp(req, res)
  })

  function serveHttp(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end()
      return
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const file = options.staticDir ? resolveStatic(options.staticDir, url.pathname) : null
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n')
      return
    }
    const headers: Record<string, string> = {
      'Content-Security-Policy': contentSecurityPolicy(port),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    }
    if (url.searchParams.has('token')) {
      // Later requests for scripts and styles carry no query string; the cookie stands in.
      headers['Set-Cookie'] = `${cookieName()}=${presentedToken(req)}; Path=/; HttpOnly; SameSite=Strict`
    }
    sendFile(res, file, headers)
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, WebSocket: HostSocket })
  const alive = new WeakSet<WebSocket>()
  /** Connections made with the windows' token (not the API's event streams): a new token ends them. */
  const windows = new Set<WebSocket>()

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node's HTTP server stops listening to an upgraded socket: a reset during the handshake
    // or the refusal below must end this socket, not the process.
    socket.on('error', () => socket.destroy())
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    if (path === EVENTS_STREAM_PATH && options.api) {
      const authorized = authorizeApi(req, port, { ...options.api, uiToken })
      if ('status' in authorized) return refuseUpgrade(socket, authorized)
      wss.handleUpgrade(req, socket, head, (ws) => {
        keepAlive(ws)
        streamEvents(ws, bus, log)
      })
      return
    }
    const refusal: Refusal | null = WS_PATHS.has(path)
      ? checkRequest(withCookie(req, cookieName()), port, token)
      : { status: 403, reason: 'not a WebSocket endpoint' }
    if (refusal) return refuseUpgrade(socket, refusal)
    wss.handleUpgrade(req, socket, head, (ws) => {
      windows.add(ws)
      ws.on('close', () => windows.delete(ws))
      wss.emit('connection', ws, req)
    })
  })

  /** Answered pings keep a connection; one that misses a heartbeat is ended. */
  function keepAlive(ws: WebSocket): void {
    alive.add(ws)
    ws.on('pong', () => alive.add(ws))
  }

  function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
    log(`[host] refused WebSocket: ${refusal.reason}`)
    socket.end(
      `HTTP/1.1 ${refusal.status} ${statusText(refusal.status)}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    )
  }

  const seedFlowUpdate = options.wholeFlow ? seedFlowUpdates(options.wholeFlow) : null
  wss.on('connection', (ws: WebSocket) => {
    const session = new WireSession(router, options.eventFlows ?? flowsNamedInEvent, (reply) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply))
    })
    keepAlive(ws)
    // A bad frame from one client (invalid UTF-8, too big, a reserved opcode…) is an 'error' on
    // its socket; unheard, it would end the process and every other tab's connection with it.
    // ws has already closed this connection with the matching code: only say what happened.
    ws.on('error', (e: Error & { code?: string }) => log(`[host] closed a WebSocket: ${e.code ?? e.message}`))
    const send = (event: WireEvent['event'], data: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, data } satisfies WireEvent))
    }
    const stopListening = bus.listen((event, data) => {
      if (session.hears(event, data)) send(event, data)
      if (event !== 'flow_changed' || !seedFlowUpdate) return
      const whole = seedFlowUpdate(data as FlowPatch, (named) => session.hears('flow_updated', named))
      if (whole) send('flow_updated', whole)
    })
    ws.on('close', stopListening)
    ws.on('message', (raw, isBinary) => session.receive(isBinary ? null : raw.toString()))
  })

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate()
        continue
      }
      alive.delete(ws)
      ws.ping()
    }
  }, HEARTBEAT_MS)
  heartbeat.unref()

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port

  return {
    port,
    get url() {
      return `http://127.0.0.1:${port}/?token=${token}`
    },
    setToken(next) {
      token = next
      // After this turn: the answer to the request that renewed it goes out first.
      const ending = [...windows]
      setImmediate(() => {
        for (const ws of ending) ws.close(4001, 'the access token was renewed')
      })
    },
    async close() {
      clearInterval(heartbeat)
      for (const ws of wss.clients) ws.close(1001, 'host shutting down')
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Presents the per-port cookie under the generic name `checkRequest` reads. */
function withCookie(req: IncomingMessage, cookieName: string): IncomingMessage {
  const cookie = req.headers.cookie
  if (!cookie) return req
  const ours = cookie
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${cookieName}=`))
  const rewritten = ours ? `${TOKEN_COOKIE}=${ours.slice(cookieName.length + 1)}` : ''
  return Object.assign(Object.create(req) as IncomingMessage, { headers: { ...req.headers, cookie: rewritten } })
}

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ')
}

function refuseHttp(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  // A person opening a page with an old or missing token gets a page that says what to do.
  if (refusal.status === 401 && wantsPage(req)) {
    res
      .writeHead(401, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy':
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'X-Frame-Options': 'DENY',
        'Cache-Control': 'no-store',
        'Content-Language': staleTokenLanguage(req.headers['accept-language']),
      })
      .end(staleTokenPage(req.headers['accept-language']))
    return
  }
  res.writeHead(refusal.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${refusal.reason}\n`)
}

function statusText(status: number): string {
  return status === 401 ? 'Unauthorized' : 'Forbidden'
}
