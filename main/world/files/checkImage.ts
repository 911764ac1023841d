import { AppError } from '@shared/errors'
import type { WorldTexts } from '../worldText'
import { imageSize, looksLikeSvg, sniffImage, type ImageType } from '../../kernel/imageType'

export interface ImageLimits {
  maxBytes: number
  maxPixels: number
}

/** 20 MB and 40 megapixels unless LOOMVERSE_MAX_IMAGE_MB / LOOMVERSE_MAX_IMAGE_MEGAPIXELS say otherwise. */
export function imageLimits(env: NodeJS.ProcessEnv): ImageLimits {
  const positive = (v: string | undefined, fallback: number) => {
    const n = Number(v)
    return v && Number.isFinite(n) && n > 0 ? n : fallback
  }
  return {
    maxBytes: Math.round(positive(env.LOOMVERSE_MAX_IMAGE_MB, 20) * 1024 * 1024),
    maxPixels: Math.round(positive(env.LOOMVERSE_MAX_IMAGE_MEGAPIXELS, 40) * 1_000_000),
  }
}

/**
 * An upload is a picture only if its bytes say so: the type comes from the magic number,
 * never from the name or a claimed mime. Anything else is refused before a byte is stored.
 */
export function checkImage(bytes: Uint8Array, filename: string, limits: ImageLimits, t: WorldTexts): ImageType {
  const name = filename || 'image'
  if (bytes.length > limits.maxBytes)
    throw new AppError('bad_input', t.tooBig(name, Math.round(limits.maxBytes / 1048576)))
  if (looksLikeSvg(bytes)) throw new AppError('bad_input', t.svg(name))
  const type = sniffImage(bytes)
  if (!type) throw new AppError('bad_input', t.notImage(name))
  const size = imageSize(bytes, type)
  if (!size || size.width === 0 || size.height === 0) throw new AppError('bad_input', t.badHeader(name))
  if (size.width * size.height > limits.maxPixels) {
    throw new AppError(
      'bad_input',
      t.tooManyPixels(name, size.width, size.height, Math.round(limits.maxPixels / 10_000)),
    )
  }
  return type
}

/** Base64 as sent by the renderer, with or without a `data:…;base64,` prefix. */
export function decodeBase64(data: string): Buffer {
  const body = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data
  return Buffer.from(body, 'base64')
}
