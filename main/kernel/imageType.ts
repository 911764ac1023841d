/** The picture types Loomverse stores, told apart by their first bytes — never by the file name. */
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif'

export interface ImageType {
  mime: ImageMime
  ext: 'png' | 'jpg' | 'webp' | 'gif'
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v)
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))

export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' }
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return { mime: 'image/webp', ext: 'webp' }
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a'))
    return { mime: 'image/gif', ext: 'gif' }
  return null
}

/** SVG is text that can carry scripts: recognised only to refuse it by name. */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 1024)).trimStart().toLowerCase()
  return head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))
}

/** Width and height from the header, or null when the header is cut short or malformed. */
export function imageSize(bytes: Uint8Array, type: ImageType): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  try {
    switch (type.mime) {
      case 'image/png':
        // IHDR is always the first chunk.
        if (ascii(bytes, 12, 16) !== 'IHDR') return null
        return { width: view.getUint32(16), height: view.getUint32(20) }
      case 'image/gif':
        return { width: view.getUint16(6, true), height: view.getUint16(8, true) }
      case 'image/webp':
        return webpSize(bytes, view)
      case 'image/jpeg':
        return jpegSize(bytes, view)
    }
  } catch {
    return null // read past the end: a truncated header
  }
}

function webpSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | null {
  const chunk = ascii(bytes, 12, 16)
  if (chunk === 'VP8X') {
    const w = 1 + (view.getUint16(24, true) | (view.getUint8(26) << 16))
    const h = 1 + (view.getUint16(27, true) | (view.getUint8(29) << 16))
    return { width: w, height: h }
  }
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff }
  return null
}

function jpegSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | null {
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    // SOF0–SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) }
    }
    at += 2 + view.getUint16(at + 2)
  }
  return null
}
