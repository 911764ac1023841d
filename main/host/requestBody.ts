import type { IncomingMessage } from 'node:http'

/** The largest body the HTTP API reads (20 MB), pictures in base64 included. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024

export type BodyResult = { ok: true; json: unknown } | { ok: false; status: 400 | 413; message: string }

/**
 * Reads a JSON body, stopping at the limit: a declared length over it is refused before a byte
 * is read, and a body that grows past it is cut off there. The rest is not read (the caller
 * answers 413 and closes the connection): reading 1 GB to throw it away costs what the limit
 * is there to save.
 */
export function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const tooBig = {
    ok: false,
    status: 413,
    message: `the body is over the limit of ${limit / (1024 * 1024)} MB`,
  } as const
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) return Promise.resolve(tooBig)
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    req.on('data', (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size > limit) {
        done = true
        chunks.length = 0
        req.pause()
        resolve(tooBig)
        return
      }
      chunks.push(chunk)
    })
    req.on('error', () => {
      if (!done) resolve({ ok: false, status: 400, message: 'the request was cut off' })
      done = true
    })
    req.on('end', () => {
      if (done) return
      done = true
      const text = Buffer.concat(chunks).toString('utf8')
      if (text.trim() === '') return resolve({ ok: true, json: {} })
      try {
        resolve({ ok: true, json: JSON.parse(text) })
      } catch {
        resolve({ ok: false, status: 400, message: 'the body is not valid JSON' })
      }
    })
  })
}
