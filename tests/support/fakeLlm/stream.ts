// Writing responses: JSON, framed streams (SSE or NDJSON) with scripted pacing and cuts, and waits.

import type { ServerResponse } from 'node:http'
import type { Context } from './context'
import type { ScriptRule } from './types'

/** `head` frames precede the deltas, `tail` frames (finish, usage, [DONE]) follow them. */
export interface Frame {
  kind: 'head' | 'delta' | 'tail'
  data: string
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  })
  res.end(text)
}

/**
 * Streams the frames, pacing deltas by `chunkDelayMs`. With `disconnectAfterChunks` the socket is
 * destroyed after that many deltas (tail frames never go out), so the client sees a broken body.
 */
export async function streamFrames(ctx: Context, contentType: string, frames: Frame[], rule: ScriptRule | null) {
  const { res, signal } = ctx
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' })
  res.flushHeaders()
  const cutAfter = rule?.disconnectAfterChunks
  let deltas = 0
  for (const frame of frames) {
    if (cutAfter !== undefined && (frame.kind === 'tail' || (frame.kind === 'delta' && deltas >= cutAfter))) {
      return cut(res)
    }
    if (frame.kind === 'delta') {
      if (deltas > 0 && rule?.chunkDelayMs && !(await sleep(rule.chunkDelayMs, signal))) return cut(res)
      deltas++
    }
    if (signal.aborted || !(await write(res, frame.data))) return cut(res)
  }
  if (cutAfter !== undefined) return cut(res)
  res.end()
}

/** Resolves true once the data is handed to the socket, false if the response is gone. */
function write(res: ServerResponse, data: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false)
  return new Promise((resolve) => {
    // A destroyed socket may never call back; 'close' bounds the wait.
    const onClose = () => resolve(false)
    res.once('close', onClose)
    res.write(data, (err) => {
      res.off('close', onClose)
      resolve(!err)
    })
  })
}

/** Drops the connection without finishing the response. */
export function cut(res: ServerResponse): void {
  res.socket?.destroy()
  res.destroy()
}

/** Waits `ms`; resolves false early if the signal aborts, and never leaves a timer behind. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  if (ms <= 0) return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve(finished)
    }
    const onAbort = () => done(false)
    const timer = setTimeout(() => done(true), ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Resolves true once `gate` settles, false if the client went away first. */
export function waitFor(gate: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const onAbort = () => resolve(false)
    signal.addEventListener('abort', onAbort, { once: true })
    const settled = () => {
      signal.removeEventListener('abort', onAbort)
      resolve(!signal.aborted)
    }
    gate.then(settled, settled)
  })
}

export const sse = (payload: unknown, delimiter = '\n\n'): string => `data: ${JSON.stringify(payload)}${delimiter}`
export const ndjson = (payload: unknown): string => `${JSON.stringify(payload)}\n`
