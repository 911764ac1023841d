import { createHash } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import type { ContextPart, ContextPreview } from '@shared/contract'
import type { Db } from './open'

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
interface Skeleton extends Omit<ContextPreview, 'parts' | 'messages'> {
  parts: number
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
  for (let i = 0; i < buf.length; ) {
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

/** Writes a context's parts (each distinct one once) and answers what the node's row holds. */
export function storeContextParts(db: Db, context: ContextPreview): { context: Buffer; part_ids: Buffer } {
  const find = db.prepare('SELECT id FROM sent_context_parts WHERE hash = ?').pluck()
  const insert = db.prepare('INSERT INTO sent_context_parts (hash, body, packed) VALUES (?, ?, ?)')
  const ids = context.parts.map((part) => {
    const json = JSON.stringify(part)
    const hash = createHash('sha256').update(json).digest()
    const id = find.get(hash) as number | undefined
    if (id !== undefined) return id
    const packed = json.length >= PACK_PART_FROM
    return Number(insert.run(hash, packed ? packContext(part) : Buffer.from(json), packed ? 1 : 0).lastInsertRowid)
  })
  const skeleton: Skeleton = {
    ...context,
    parts: context.parts.length,
    messages: context.messages.map((m) => ({ role: m.role, content: pieces(m.content, context.parts) })),
  }
  return { context: packContext(skeleton), part_ids: encodeIds(ids) }
}

/** The context a `format` 2 row stands for, exactly as it was saved. */
export function loadContextParts(db: Db, packed: Buffer, partIds: Buffer): ContextPreview {
  const skeleton = unpackContext(packed) as unknown as Skeleton
  const get = db.prepare('SELECT body, packed FROM sent_context_parts WHERE id = ?')
  const parts = decodeIds(partIds).map((id) => {
    const row = get.get(id) as { body: Buffer; packed: number } | undefined
    if (!row) throw new Error(`sent context part ${id} is missing`)
    return (row.packed ? unpackContext(row.body) : JSON.parse(row.body.toString('utf8'))) as ContextPart
  })
  return {
    ...skeleton,
    parts,
    messages: skeleton.messages.map((m) => ({
      role: m.role,
      content: m.content.map((p) => (typeof p === 'number' ? parts[p]!.text : p)).join(''),
    })),
  }
}

/**
 * Removes parts no context refers to any more, when a context was deleted or replaced since the
 * last sweep (a trigger notes it in sent_context_parts_sweep). Run at start-up: a node's
 * deletion costs nothing more than its row.
 */
export function sweepContextParts(db: Db): number {
  const due = db.prepare('SELECT 1 FROM sent_context_parts_sweep').get()
  if (!due) return 0
  return db.transaction(() => {
    const used = new Set<number>()
    const rows = db
      .prepare('SELECT part_ids FROM node_sent_contexts WHERE part_ids IS NOT NULL')
      .pluck()
      .iterate() as Iterable<Buffer>
    for (const ids of rows) for (const id of decodeIds(ids)) used.add(id)
    const remove = db.prepare('DELETE FROM sent_context_parts WHERE id = ?')
    let removed = 0
    for (const id of db.prepare('SELECT id FROM sent_context_parts').pluck().all() as number[])
      if (!used.has(id)) removed += remove.run(id).changes
    db.prepare('DELETE FROM sent_context_parts_sweep').run()
    return removed
  }).immediate()
}
