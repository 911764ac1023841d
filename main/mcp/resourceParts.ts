import type { McpResourceRead } from '@shared/contract'
import { AppError } from '@shared/errors'
import { WHOLE_MESSAGE_BYTES } from './mcpReadBuffer'
import { KEPT_TEXT_LIMIT } from './mcpResult'
import type { McpResourceRead as RawRead } from './mcpTransport'

/** The most one part of an attached resource may be: what a picture dropped on the window may be. */
export const ATTACHMENT_LIMIT_BYTES = 20 * 1024 * 1024

/** The pictures a model is sent (chat_send's images); other image types are named as files. */
const PICTURE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])

/** Types whose bytes are text, whichever way the server sent them (a blob of text/plain is text). */
const TEXT_MIME = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|toml|csv|x-sh)\b|[^;]*\+(json|xml)\b)/i

/**
 * A resource's parts as a message takes them, like a file attached to it: text (a text blob
 * decoded) goes in the message, pictures go as pictures, anything else is named with its type
 * and size (a model cannot read it). A part over the attachment limit, or an answer too big to
 * be read whole, refuses the whole resource with a message saying how big it is.
 */
export function resourceParts(uri: string, read: RawRead): McpResourceRead {
  if (read.cut)
    throw new AppError(
      'bad_input',
      `"${uri}" is ${size(read.cut.bytes)} as the server sent it, more than the ${size(WHOLE_MESSAGE_BYTES)} a server's answer is read whole; it cannot be attached`,
    )
  const texts: string[] = []
  const images: McpResourceRead['images'] = []
  const files: McpResourceRead['files'] = []
  for (const part of read.contents) {
    if (typeof part.text === 'string') {
      texts.push(part.text)
      continue
    }
    if (typeof part.blob !== 'string') continue
    const mime = part.mimeType?.trim() || 'application/octet-stream'
    const bytes = base64Bytes(part.blob)
    if (bytes > ATTACHMENT_LIMIT_BYTES)
      throw new AppError(
        'bad_input',
        `"${part.uri}" (${mime}) is ${size(bytes)}; an attachment may be at most ${size(ATTACHMENT_LIMIT_BYTES)}`,
      )
    if (TEXT_MIME.test(mime)) texts.push(Buffer.from(part.blob, 'base64').toString('utf8'))
    else if (PICTURE_MIMES.has(mime.toLowerCase()))
      images.push({
        uri: part.uri,
        mime: mime.toLowerCase() as McpResourceRead['images'][number]['mime'],
        data_base64: part.blob,
      })
    else files.push({ uri: part.uri, mime, bytes })
  }
  const text = texts.filter(Boolean).join('\n\n')
  const note =
    text.length > KEPT_TEXT_LIMIT
      ? `the resource was ${text.length.toLocaleString('en')} characters; cut at ${KEPT_TEXT_LIMIT.toLocaleString('en')}`
      : null
  return { text: text.slice(0, KEPT_TEXT_LIMIT), note, images, files }
}

/** Decoded size of base64 text, without decoding it. */
function base64Bytes(base64: string): number {
  const body = base64.replace(/\s+/g, '')
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0
  return Math.floor((body.length * 3) / 4) - padding
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes.toLocaleString('en')} bytes`
}
