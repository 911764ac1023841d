import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** A message up to this size is read whole, as the SDK would (its own limit is 10 MiB). */
export const WHOLE_MESSAGE_BYTES = 10 * 1024 * 1024
/** Of a larger message, the first bytes kept: more text than the node keeps (mcpResult). */
export const CUT_HEAD_BYTES = 1024 * 1024
/** And the last bytes kept: a server may write the answer's id after its result. */
const TAIL_BYTES = 4096

/** Where a message cut by the reader says so: the result's `_meta`, read by keepResult. */
export const CUT_META_KEY = 'loomverse/cut'
export interface CutMeta {
  /** The message's size as the server wrote it. */
  bytes: number
  /** Bytes of it that were read before the rest was let go. */
  kept: number
}

interface Line {
  parts: Buffer[]
  size: number
  /** Set once the line outgrew WHOLE_MESSAGE_BYTES: its parts are then only the head. */
  tail: Buffer | null
}

/**
 * Reads newline-delimited JSON-RPC from a stdio server with memory bounded by
 * WHOLE_MESSAGE_BYTES, in place of the SDK's reader, which refuses a message over 10 MiB (and
 * joins the chunks again at each one, so a large message costs time that grows with its square).
 * A larger message is not refused: its head and tail are kept while the rest streams past, and
 * a tool's answer is made of the head's first text — a 50 MB result reaches the user and the
 * model as its first part, with a note of where it was cut.
 */
export class CappedReadBuffer {
  private line: Line = emptyLine()
  private readonly ready: Array<Line> = []

  append(chunk: Buffer): void {
    let from = 0
    for (;;) {
      const at = chunk.indexOf(10, from) // '\n'
      if (at < 0) break
      this.add(chunk.subarray(from, at))
      this.ready.push(this.line)
      this.line = emptyLine()
      from = at + 1
    }
    if (from < chunk.length) this.add(chunk.subarray(from))
  }

  readMessage(): JSONRPCMessage | null {
    const line = this.ready.shift()
    if (!line) return null
    if (!line.tail) return deserializeMessage(Buffer.concat(line.parts).toString('utf8').replace(/\r$/, ''))
    return cutMessage(Buffer.concat(line.parts), line.tail, line.size)
  }

  clear(): void {
    this.line = emptyLine()
    this.ready.length = 0
  }

  private add(part: Buffer): void {
    const line = this.line
    if (part.length === 0) return
    line.size += part.length
    if (!line.tail && line.size <= WHOLE_MESSAGE_BYTES) {
      // Copied: the chunk's memory is the stream's, and a view would keep all of it alive.
      line.parts.push(Buffer.from(part))
      return
    }
    if (!line.tail) {
      // From here on only the head and a rolling tail are kept.
      const whole = Buffer.concat(line.parts)
      line.parts = [Buffer.from(whole.subarray(0, CUT_HEAD_BYTES))]
      line.tail = Buffer.alloc(0)
      part = Buffer.concat([whole.subarray(CUT_HEAD_BYTES), part])
    }
    const joined = Buffer.concat([line.tail, part.subarray(Math.max(0, part.length - TAIL_BYTES))])
    line.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - TAIL_BYTES)))
  }
}

function emptyLine(): Line {
  return { parts: [], size: 0, tail: null }
}

/**
 * The answer a cut message stood for: its id (at its start, or at its end as the TypeScript SDK
 * writes it) and the text its head held, marked as cut. A cut message that is not an answer
 * with an id (a huge notification) cannot be used, and is reported as an error.
 */
export function cutMessage(head: Buffer, tail: Buffer, bytes: number): JSONRPCMessage {
  const start = head.subarray(0, 4096).toString('utf8')
  const end = tail.toString('utf8')
  const id = idIn(start.slice(0, Math.max(0, start.indexOf('"result"'))) || '') ?? idAtEnd(end)
  if (id === null || !start.includes('"result"'))
    throw new Error(`the server sent a message of ${bytes.toLocaleString('en')} bytes that is not a tool's answer`)
  const text = firstText(head.toString('utf8'))
  const meta: CutMeta = { bytes, kept: head.length }
  return {
    jsonrpc: '2.0',
    id,
    result: {
      content: text === null ? [] : [{ type: 'text', text }],
      _meta: { [CUT_META_KEY]: meta },
    },
  } as JSONRPCMessage
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`

function idIn(text: string): string | number | null {
  const m = new RegExp(String.raw`"id"\s*:\s*${ID}`).exec(text)
  return m ? (JSON.parse(m[1]!) as string | number) : null
}

function idAtEnd(text: string): string | number | null {
  const m = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*\r?$`).exec(text)
  return m ? (JSON.parse(m[1]!) as string | number) : null
}

/** The first `"text":"…"` string of a JSON head that ends anywhere, decoded up to where it ends. */
function firstText(head: string): string | null {
  const at = head.search(/"text"\s*:\s*"/)
  if (at < 0) return null
  const open = head.indexOf('"', head.indexOf(':', at))
  let i = open + 1
  while (i < head.length && head[i] !== '"') i += head[i] === '\\' ? 2 : 1
  // The string ended inside the head, or is cut: drop a half escape (\, \u12) before decoding it.
  const body = head.slice(open + 1, Math.min(i, head.length)).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '')
  try {
    return JSON.parse(`"${body}"`) as string
  } catch {
    return null
  }
}
