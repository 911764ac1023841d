import type { McpContent } from '@shared/contract'
import { CUT_META_KEY, type CutMeta } from './mcpReadBuffer'
import type { McpRawResult } from './mcpTransport'

/** Characters of a result's text the model reads; the rest is cut with a note saying so. */
export const MODEL_TEXT_LIMIT = 32_000
/** Characters of text kept on the node; a 50 MB answer must not become a 50 MB row. */
export const KEPT_TEXT_LIMIT = 256_000
/** Bytes (base64) of one picture kept and shown; larger ones are named, not kept. */
export const KEPT_IMAGE_LIMIT = 4_000_000

export interface KeptResult {
  content: McpContent[]
  /** What the model reads. */
  text: string
  images: Array<{ mime: string; data_base64: string }>
  /** Set when something was cut or left out. */
  note: string | null
}

/** A tool's answer as the node keeps it and the model reads it, both within their limits. */
export function keepResult(raw: McpRawResult): KeptResult {
  const content: McpContent[] = []
  const notes: string[] = []
  const cut = raw._meta?.[CUT_META_KEY] as CutMeta | undefined
  if (cut)
    notes.push(
      `the server's answer was ${cut.bytes.toLocaleString('en')} bytes; cut at ${cut.kept.toLocaleString('en')} bytes, the first of its text kept`,
    )
  let keptChars = 0
  const keepText = (text: string) => {
    const room = Math.max(0, KEPT_TEXT_LIMIT - keptChars)
    if (text.length > room)
      notes.push(
        `the result's text was ${text.length.toLocaleString('en')} characters; kept the first ${room.toLocaleString('en')}`,
      )
    const kept = text.slice(0, room)
    keptChars += kept.length
    if (kept) content.push({ type: 'text', text: kept })
  }
  for (const block of Array.isArray(raw.content) ? raw.content : []) {
    const type = block.type
    if (type === 'text' && typeof block.text === 'string') keepText(block.text)
    else if ((type === 'image' || type === 'audio') && typeof block.data === 'string') {
      const mime = typeof block.mimeType === 'string' ? block.mimeType : 'application/octet-stream'
      if (type === 'image' && block.data.length <= KEPT_IMAGE_LIMIT)
        content.push({ type: 'image', mime, data_base64: block.data })
      else notes.push(`a ${mime} of ${Math.round((block.data.length * 3) / 4).toLocaleString('en')} bytes was left out`)
    } else if (type === 'resource_link' && typeof block.uri === 'string')
      content.push({
        type: 'resource_link',
        uri: block.uri,
        ...(typeof block.name === 'string' ? { name: block.name } : {}),
      })
    else if (type === 'resource' && block.resource && typeof block.resource === 'object') {
      const r = block.resource as { uri?: unknown; text?: unknown }
      if (typeof r.text === 'string') keepText(r.text)
      else if (typeof r.uri === 'string') content.push({ type: 'resource_link', uri: r.uri })
    }
  }
  if (raw.structuredContent !== undefined) {
    const json = JSON.stringify(raw.structuredContent)
    if (json.length <= KEPT_TEXT_LIMIT) content.push({ type: 'structured', json })
    else notes.push('the structured content was too large to keep')
  }
  const note = notes.length > 0 ? notes.join('; ') : null
  return {
    content,
    text: modelText(content, note),
    images: content.flatMap((c) => (c.type === 'image' ? [{ mime: c.mime, data_base64: c.data_base64 }] : [])),
    note,
  }
}

function modelText(content: McpContent[], note: string | null): string {
  const parts = content.map((c) => {
    if (c.type === 'text') return c.text
    if (c.type === 'image') return `[picture: ${c.mime}]`
    if (c.type === 'resource_link') return `[resource: ${c.name ? `${c.name} ` : ''}${c.uri}]`
    return c.json
  })
  let text = parts.join('\n') || '(no content)'
  if (text.length > MODEL_TEXT_LIMIT)
    text = `${text.slice(0, MODEL_TEXT_LIMIT)}\n[cut: the result was ${text.length.toLocaleString('en')} characters]`
  return note ? `${text}\n[note: ${note}]` : text
}
