import { crc32, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { pictureFor } from './pictures'
import { encodePng } from './png'

/** The chunks of a PNG, each checked against its CRC by node's own crc32. */
function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const out: Array<{ type: string; data: Buffer }> = []
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at)
    const typeAndData = png.subarray(at + 4, at + 8 + length)
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData))
    out.push({ type: typeAndData.subarray(0, 4).toString('ascii'), data: typeAndData.subarray(4) })
    at += 12 + length
  }
  return out
}

describe('encodePng', () => {
  it('writes a valid truecolour PNG whose pixels inflate back to the input', () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9, 1, 2, 3, 4, 5, 6])
    const parts = chunks(encodePng(3, 2, rgb))
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    const header = parts[0]!.data
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([3, 2, 8, 2])
    // Each row: filter byte 0, then its pixels.
    expect([...inflateSync(parts[1]!.data)]).toEqual([0, ...rgb.subarray(0, 9), 0, ...rgb.subarray(9)])
  })

  it('refuses pixel data of the wrong length', () => {
    expect(() => encodePng(2, 2, new Uint8Array(3))).toThrow(/12 bytes/)
  })
})

describe('pictureFor', () => {
  it('gives the same picture for the same prompt and another for another prompt or model', () => {
    const fox = pictureFor('gpt-image-1', 'a fox')
    expect(chunks(fox).map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(pictureFor('gpt-image-1', 'a fox').equals(fox)).toBe(true)
    expect(pictureFor('gpt-image-1', 'an owl').equals(fox)).toBe(false)
    expect(pictureFor('dall-e-3', 'a fox').equals(fox)).toBe(false)
  })
})
