import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'

/**
 * The connections the OpenAI-compatible servers and Ollama are reached by: kept alive between
 * calls, with no time limits of undici's own. The SDK's timeout bounds the wait for the answer's
 * headers and the connector's idle timeout a stream that stalls (a local model may think for
 * minutes). Redirects are followed as fetch follows them (up to 20): a server behind a proxy
 * that sends http to https, say, must answer as it did.
 */
const pool = new Agent({ headersTimeout: 0, bodyTimeout: 0, maxRedirections: 20 })

/**
 * The fetch the OpenAI SDK is given, and the one the Ollama connector calls: undici's `request()`
 * over the pool, answering with what they read of a Response (status, headers, a body they
 * iterate, text and JSON).
 *
 * Why not Node's fetch: a call cost ~140 KB of allocations (web streams, a copy of the request
 * body by a tee), and the WeakRefs fetch keeps (to the response, its body's stream and the
 * request's controller) hold all of it through every young-generation collection, which
 * leaves weak references alone: ~36 KB a call reached the old generation and died there. Each
 * collection that landed in a reply then cost 5–8 ms of the main thread instead of ~1–2.
 *
 * A body the SDK streams up (a file upload) goes by Node's fetch, which knows how to send one.
 */
export const poolFetch: typeof fetch = async (input, init) => {
  const body = init?.body
  if (
    (typeof input !== 'string' && !(input instanceof URL)) ||
    (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))
  )
    return fetch(input, init)
  const answer = await request(input, {
    dispatcher: pool,
    method: (init?.method ?? 'GET') as 'GET',
    headers: headerObject(init?.headers),
    body: body ?? undefined,
    signal: init?.signal ?? undefined,
  })
  return responseOf(String(input), answer) as unknown as Response
}

function headerObject(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {}
  if (headers) new Headers(headers).forEach((value, name) => (out[name] = value))
  return out
}

type Answer = Awaited<ReturnType<typeof request>>

/**
 * What the SDK and the Ollama connector read of a Response; the body is a Node stream, which
 * both iterate as it is. `url` is the one asked (the SDK only logs it), also after a redirect.
 */
function responseOf(url: string, { statusCode, headers, body }: Answer) {
  const list = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const v of value) list.append(name, v)
    else if (value !== undefined) list.set(name, value)
  }
  return {
    url,
    status: statusCode,
    ok: statusCode >= 200 && statusCode < 300,
    headers: list,
    body,
    text: () => body.text(),
    json: () => body.json(),
  }
}

/**
 * Makes one request through the pool to a server of our own on loopback, which contacts nothing
 * else. The first request a process makes through undici compiles its HTTP parser and runs its
 * code for the first time, ~40 ms the first reply after start-up would otherwise pay; later
 * ones take ~3. Never fails: a warm-up that cannot run leaves the first reply as it was.
 */
export async function warmPoolFetch(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.end())
  })
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve))
    const answer = await poolFetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    await answer.text()
  } catch {
    // Nothing to warm, then.
  } finally {
    server.closeAllConnections()
    server.close()
  }
}
