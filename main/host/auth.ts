import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const TOKEN_COOKIE = 'loomverse_token'

/** 256 bits from the OS's CSPRNG, hex encoded. A new one every launch unless the user pins one. */
export function newToken(): string {
  return randomBytes(32).toString('hex')
}

/**
 * Constant-time comparison; hashing first makes both sides the same length. One-shot hashes: a
 * createHash() object is a native one the young generation's collections must finalize.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const a = hash('sha256', given, 'buffer')
  const b = hash('sha256', expected, 'buffer')
  return timingSafeEqual(a, b)
}

export type Refusal = { status: 401 | 403; reason: string }

/**
 * Decides whether a request may reach the host at all, before any handler runs.
 * - Host must be 127.0.0.1 or localhost on our port: a DNS-rebinding page cannot pass.
 * - Origin, when a browser sends one, must be our own origin: another site's page cannot
 *   drive the API even though it can reach loopback.
 * - The token: `?token=`, `Authorization: Bearer`, or the cookie the first page load sets.
 */
export function checkRequest(req: IncomingMessage, port: number, token: string): Refusal | null {
  const place = checkPlace(req, port)
  if (place) return place
  const given = presentedToken(req)
  if (given === null) return { status: 401, reason: 'missing token' }
  if (!tokensEqual(given, token)) return { status: 401, reason: 'bad token' }
  return null
}

/** Host and Origin only (the first two rules above): the HTTP API checks its own tokens after. */
export function checkPlace(req: IncomingMessage, port: number): Refusal | null {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  const host = req.headers.host ?? ''
  if (!allowedHosts.includes(host.toLowerCase())) {
    return { status: 403, reason: `Host "${host}" is not allowed` }
  }
  const origin = req.headers.origin
  if (origin !== undefined && !allowedHosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { status: 403, reason: `Origin "${origin}" is not allowed` }
  }
  return null
}

export function presentedToken(req: IncomingMessage): string | null {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  const query = url.searchParams.get('token')
  if (query) return query
  return bearerToken(req.headers.authorization) ?? cookieValue(req.headers.cookie, TOKEN_COOKIE)
}

/** The token of an `Authorization: Bearer …` header; the scheme's case does not matter (RFC 7235). */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^bearer\s+(\S.*)$/i)
  return match ? match[1]!.trim() : null
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return null
}
