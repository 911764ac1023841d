import { mkdirSync } from 'node:fs'
import WebSocket from 'ws'
import { homePaths } from '../kernel/home'
import { liveHost, readHostFile } from './hostFile'
import { keptToken, readTokenFile, tokenFile } from './tokenFile'

/**
 * `loomverse token [--new]`: the address browser mode is at (or will be at), and a new token on
 * request. A running host renews its own token (its open windows are disconnected and the new
 * address announced); with none running, the kept token is replaced for the next start.
 */
export async function tokenCommand(home: string, options: { rotate: boolean }): Promise<string[]> {
  const paths = homePaths(home)
  const running = await liveHost(paths.hostFile)
  const record = readHostFile(paths.hostFile)
  if (running && typeof record?.token === 'string' && typeof record.url === 'string') {
    if (!options.rotate) return [`Loomverse is running at ${record.url}`]
    const url = await renewOnHost(running.port, record.token)
    return [
      `Loomverse is running at ${url}`,
      'A new token is in use: tabs opened with the old address must open this one.',
    ]
  }
  if (options.rotate) {
    mkdirSync(home, { recursive: true, mode: 0o700 })
    keptToken(home, { rotate: true })
    return ['A new token is kept. "loomverse serve" (or "npm start") uses it and prints the address when it starts.']
  }
  const kept = readTokenFile(tokenFile(home))
  return [
    kept
      ? `No Loomverse host is running on ${home}. "loomverse serve" starts one with the kept token and prints the address.`
      : `No Loomverse host is running on ${home}, and no token is kept yet: "loomverse serve" makes one and prints the address.`,
  ]
}

/** Asks the running host, as a window would, for a new token; resolves with its new address. */
function renewOnHost(port: number, token: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${encodeURIComponent(token)}`)
    const timer = setTimeout(() => {
      ws.terminate()
      reject(new Error(`the host on port ${port} did not answer within ${timeoutMs / 1000} s`))
    }, timeoutMs)
    const fail = (e: Error) => {
      clearTimeout(timer)
      reject(e)
    }
    ws.once('error', fail)
    ws.once('unexpected-response', (_req, res) =>
      fail(new Error(`the host on port ${port} refused the token in host.json (HTTP ${res.statusCode})`)),
    )
    ws.once('open', () => ws.send(JSON.stringify({ id: 1, action: 'browser_new_token', data: {} })))
    ws.on('message', (raw: WebSocket.RawData) => {
      const reply = JSON.parse(String(raw)) as {
        id?: unknown
        status?: string
        data?: { url?: string }
        error?: { message?: string }
      }
      if (reply.id !== 1) return
      clearTimeout(timer)
      ws.close()
      if (reply.status === 'success' && typeof reply.data?.url === 'string') resolve(reply.data.url)
      else reject(new Error(reply.error?.message ?? 'the host did not make a new token'))
    })
  })
}
