// A picture a provider made, typed by its bytes. (main/world checks pictures the same way
// before storing them; the connectors sit below the world and keep their own small check.)

import { LlmError, providerNames } from './llmError'
import type { GeneratedImage, ProviderId } from './types'

/** 16 base64 characters are 12 bytes: enough for every signature below. */
const headChars = 16

/** PNG, JPEG or WebP from the first bytes, or null for anything else. */
export function imageMime(bytes: Uint8Array): GeneratedImage['mime'] | null {
  const at = (sig: number[], from = 0) => sig.every((v, i) => bytes[from + i] === v)
  if (at([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (at([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (at([0x52, 0x49, 0x46, 0x46]) && at([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  return null
}

/**
 * The picture in base64 with the mime its bytes show. Whatever the provider claimed about the
 * type is not trusted; bytes that are no picture we know are refused here, not stored later.
 */
export function toGeneratedImage(provider: ProviderId, model: string, base64: string): GeneratedImage {
  const mime = imageMime(Buffer.from(base64.slice(0, headChars), 'base64'))
  if (!mime) {
    throw new LlmError('unavailable', `${providerNames[provider]} (${model}) sent something that is not a picture`)
  }
  return { mime, data_base64: base64 }
}
