import { crc32 } from 'node:zlib'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A 1×1 transparent PNG: the picture of a card whose persona has none. */
export const BLANK_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0)
  return Buffer.concat([head, data, crc])
}

/**
 * The PNG with `tEXt` chunks (keyword, NUL, Latin-1 text) put before its end, and any text chunk
 * of the same keywords (or of `drop`) it had left out: a card exported twice carries one card, not
 * two, and a card's picture kept as a persona's carries none.
 */
export function withTextChunks(
  png: Buffer,
  texts: ReadonlyArray<[keyword: string, text: string]>,
  drop: ReadonlySet<string> = new Set(),
): Buffer {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG')
  const keywords = new Set([...drop, ...texts.map(([k]) => k)])
  const kept: Buffer[] = [PNG_SIGNATURE]
  let at = 8
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    const whole = png.subarray(at, at + 12 + length)
    at += 12 + length
    if (type === 'IEND') {
      for (const [keyword, text] of texts)
        kept.push(
          chunk('tEXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')])),
        )
      kept.push(whole)
      break
    }
    if (type === 'tEXt' || type === 'iTXt') {
      const keyword = whole.toString('latin1', 8, whole.indexOf(0, 8))
      if (keywords.has(keyword)) continue
    }
    kept.push(whole)
  }
  return Buffer.concat(kept)
}
