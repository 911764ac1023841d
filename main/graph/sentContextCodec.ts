import { hash as digest } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import { LRUCache } from 'lru-cache'
import type { ContextPart, ContextPreview } from '@shared/contract'

// How a sent context is kept in node_sent_contexts and sent_context_parts: the encoding alone,
// without SQL (sentContexts.ts reads and writes the rows).

/**
 * A sent context as app migration 27 stored it: JSON, Brotli-compressed. Brotli rather than gzip
 * because the history appears twice in a context (counted parts, then the system message) tens
 * of KB apart, beyond gzip's 32 KB window; quality 4 compresses an 85 KB context to ~9 KB in
 * under a millisecond. The window is sized to the text: Brotli's default (4 MB) allocated that
 * much for every reply, and the garbage collector ran often enough to add ~2 ms to the median
 * /api/chat first delta.
 */
export function packContext(context: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(context))
  return brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(json.length + 1)))),
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  })
}

export function unpackContext(packed: Buffer): ContextPreview {
  return JSON.parse(brotliDecompressSync(packed).toString('utf8')) as ContextPreview
}

/**
 * Most of a context repeats the previous turn's: the same ancestors' lines, persona text and
 * memory pack. Since app migration 29 each distinct part (kind, node, text, tokens) is kept once
 * in sent_context_parts, keyed by its hash, and a node's context is the list of its parts' ids
 * (`part_ids`, varint deltas: a few hundred bytes) plus a compressed skeleton: the context with
 * `parts` replaced by their count and each message's content by pieces, a part's index where
 * the content repeats a part's text (the system message is the parts joined) and the rest as
 * text. Reading it back gives exactly the context saved. `format` 1 rows hold the whole context
 * compressed (written by migration 27's code); they are read as before.
 */
type Piece = string | number
interface Skeleton extends Omit<ContextPreview, 'parts' | 'messages' | 'dropped_node_ids'> {
  parts: number
  /**
   * How many blocks of ids follow the parts' ids in `part_ids`, then the ids after them (all
   * strings: written whole).
   */
  dropped_node_ids: Array<number | string>
  messages: Array<{ role: ContextPreview['messages'][number]['role']; content: Piece[] }>
}

/** Parts shorter than this are not looked for in the messages: they would match by chance. */
const MIN_PIECE = 16
/** A part's JSON this long is kept compressed. */
const PACK_PART_FROM = 1024

export const FORMAT_WHOLE = 1
export const FORMAT_PARTS = 2

function pieces(content: string, parts: readonly ContextPart[]): Piece[] {
  const out: Piece[] = []
  let at = 0
  parts.forEach((p, i) => {
    if (p.text.length < MIN_PIECE) return
    const found = content.indexOf(p.text, at)
    if (found < 0) return
    if (found > at) out.push(content.slice(at, found))
    out.push(i)
    at = found + p.text.length
  })
  if (at < content.length || out.length === 0) out.push(content.slice(at))
  return out
}

function encodeIds(ids: readonly number[]): Buffer {
  const bytes: number[] = []
  let prev = 0
  for (const id of ids) {
    const d = id - prev
    prev = id
    let z = d >= 0 ? d * 2 : -d * 2 - 1
    while (z >= 0x80) {
      bytes.push((z % 0x80) | 0x80)
      z = Math.floor(z / 0x80)
    }
    bytes.push(z)
  }
  return Buffer.from(bytes)
}

export function decodeIds(buf: Uint8Array): number[] {
  const ids: number[] = []
  let prev = 0
  for (let i = 0; i < buf.length;) {
    let z = 0
    let scale = 1
    for (;;) {
      const b = buf[i++]!
      z += (b & 0x7f) * scale
      scale *= 0x80
      if (b < 0x80) break
    }
    prev += z % 2 === 0 ? z / 2 : -(z + 1) / 2
    ids.push(prev)
  }
  return ids
}

/** How a row of sent_context_parts holds its body. */
const BODY_JSON = 0
const BODY_PACKED = 1
/** A long part's JSON with its text as the ids of its lines (base64 varints), each line a row of its own. */
export const BODY_LINES = 2
/** One line of a long part's text, as is. */
const BODY_LINE = 3
/** A block of `dropped_node_ids`, as JSON. */
const BODY_DROPPED = 4
/**
 * The ancestors a budget left out grow by one a turn, oldest first (2,000 turns in, written
 * whole, they were ~20 KB of ids a turn). They are kept in blocks of these sizes, aligned from the
 * oldest: each block is written once and shared by every later turn, and a turn names at most a
 * few dozen blocks and fewer than 8 ids of its own.
 */
const DROPPED_BLOCKS = [4096, 512, 64, 8]

/**
 * Blocks of dropped ids written lately, by size and first id. A block is compared with the one
 * kept id by id rather than serialized and hashed again: at 20,000 turns every turn's blocks were
 * ~700 KB of JSON through SHA-256, ~20 ms of the main thread after each reply's first text.
 */
export type KeptBlocks = LRUCache<string, { ids: readonly string[]; row: number }>

export function keptBlocks(): KeptBlocks {
  return new LRUCache({ max: 256 })
}

/** The rows of sent_context_parts the codec writes (their SQL is in sentContexts.ts). */
export interface PartRows {
  /** The id of the part with this hash, if it is stored. */
  find(hash: Buffer): number | undefined
  /** Stores a part; answers its id. */
  insert(hash: Buffer, body: Buffer, packed: number): number
  /** Whether a part is still stored (another process's start-up may have swept it). */
  exists(id: number): boolean
}

/** A stored part's body, or undefined when it is missing. */
export type PartBody = (id: number) => { body: Buffer; packed: number } | undefined

function sameIds(kept: readonly string[], all: readonly string[], at: number): boolean {
  for (let i = 0; i < kept.length; i++) if (kept[i] !== all[at + i]) return false
  return true
}

/** Writes a context's parts (each distinct one once) and answers what the node's row holds. */
export function encodeContextParts(
  rows: PartRows,
  kept: KeptBlocks,
  context: ContextPreview,
): { context: Buffer; part_ids: Buffer } {
  const row = (key: string, body: () => [Buffer, number]) => {
    // One-shot: a createHash() object per part (hundreds a turn, one per message of the history)
    // is a native object the collector must finalize, which made every young collection ~4 ms longer.
    const hash = digest('sha256', key, 'buffer')
    return rows.find(hash) ?? rows.insert(hash, ...body())
  }
  const ids = context.parts.map((part) => {
    const json = JSON.stringify(part)
    return row(json, () => {
      if (json.length < PACK_PART_FROM) return [Buffer.from(json), BODY_JSON]
      // A memory pack or a long persona text changes by a line or two a turn: its lines are kept
      // once each, and the part is their list.
      const lines = part.text.split('\n')
      if (lines.length < 4) return [packContext(part), BODY_PACKED]
      const lineIds = lines.map((line) => row(`line\0${line}`, () => [Buffer.from(line), BODY_LINE]))
      return [Buffer.from(JSON.stringify({ ...part, text: encodeIds(lineIds).toString('base64') })), BODY_LINES]
    })
  })
  const dropped: number[] = []
  const all = context.dropped_node_ids
  let at = 0
  for (const size of DROPPED_BLOCKS) {
    for (; all.length - at >= size; at += size) {
      const key = `${size}\0${all[at]}`
      const known = kept.get(key)
      // Another process's start-up may have swept a kept block whose contexts were all deleted.
      if (known && sameIds(known.ids, all, at) && rows.exists(known.row)) {
        dropped.push(known.row)
        continue
      }
      const ids = all.slice(at, at + size)
      const block = JSON.stringify(ids)
      const id = row(`dropped\0${block}`, () => [Buffer.from(block), BODY_DROPPED])
      kept.set(key, { ids, row: id })
      dropped.push(id)
    }
  }
  const skeleton: Skeleton = {
    ...context,
    parts: context.parts.length,
    dropped_node_ids: [dropped.length, ...all.slice(at)],
    messages: context.messages.map((m) => ({ role: m.role, content: pieces(m.content, context.parts) })),
  }
  return { context: packContext(skeleton), part_ids: encodeIds([...ids, ...dropped]) }
}

/** The context a `format` 2 row stands for, exactly as it was saved. */
export function decodeContextParts(partBody: PartBody, packed: Buffer, partIds: Buffer): ContextPreview {
  const skeleton = unpackContext(packed) as unknown as Skeleton
  const body = (id: number) => {
    const row = partBody(id)
    if (!row) throw new Error(`sent context part ${id} is missing`)
    return row
  }
  const ids = decodeIds(partIds)
  const parts = ids.slice(0, skeleton.parts).map((id) => {
    const row = body(id)
    if (row.packed === BODY_PACKED) return unpackContext(row.body) as unknown as ContextPart
    const part = JSON.parse(row.body.toString('utf8')) as ContextPart
    if (row.packed !== BODY_LINES) return part
    const lines = decodeIds(Buffer.from(part.text, 'base64')).map((line) => body(line).body.toString('utf8'))
    return { ...part, text: lines.join('\n') }
  })
  const [blocks, ...rest] = skeleton.dropped_node_ids
  const dropped =
    typeof blocks === 'number'
      ? [
          ...ids.slice(skeleton.parts).flatMap((id) => JSON.parse(body(id).body.toString('utf8')) as string[]),
          ...(rest as string[]),
        ]
      : (skeleton.dropped_node_ids as string[])
  return {
    ...skeleton,
    parts,
    dropped_node_ids: dropped,
    messages: skeleton.messages.map((m) => ({
      role: m.role,
      content: m.content.map((p) => (typeof p === 'number' ? parts[p]!.text : p)).join(''),
    })),
  }
}

/** The ids of the lines a long part (`BODY_LINES`) is made of. */
export function linesOfLongPart(body: Buffer): number[] {
  return decodeIds(Buffer.from((JSON.parse(body.toString('utf8')) as ContextPart).text, 'base64'))
}
