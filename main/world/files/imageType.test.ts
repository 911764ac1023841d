import { describe, expect, it } from 'vitest'
import { worldTexts } from '../worldText'
import { pngBytes } from '../../../tests/support/world/pngBytes'
import { checkImage, decodeBase64, imageLimits } from './checkImage'
import { imageSize, looksLikeSvg, sniffImage } from '../../kernel/imageType'

const bytes = (...parts: Array<number[] | string>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)))

const gif = bytes('GIF89a', [3, 0, 5, 0], [0, 0, 0])
// A minimal JPEG header: SOI, an APP0 segment, then SOF0 with height 7 and width 9.
const jpeg = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0], [0xff, 0xc0, 0, 11, 8, 0, 7, 0, 9, 3, 0, 0, 0, 0])
const webp = bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8X', [10, 0, 0, 0, 0, 0, 0, 0], [99, 0, 0], [49, 0, 0])

describe('image types by magic bytes', () => {
  it('recognises PNG, JPEG, WebP and GIF whatever they are called, and reads their size', () => {
    expect(sniffImage(pngBytes(4, 3))).toEqual({ mime: 'image/png', ext: 'png' })
    expect(imageSize(pngBytes(4, 3), { mime: 'image/png', ext: 'png' })).toEqual({ width: 4, height: 3 })
    expect(sniffImage(gif)).toEqual({ mime: 'image/gif', ext: 'gif' })
    expect(imageSize(gif, sniffImage(gif)!)).toEqual({ width: 3, height: 5 })
    expect(sniffImage(jpeg)).toEqual({ mime: 'image/jpeg', ext: 'jpg' })
    expect(imageSize(jpeg, sniffImage(jpeg)!)).toEqual({ width: 9, height: 7 })
    expect(sniffImage(webp)).toEqual({ mime: 'image/webp', ext: 'webp' })
    expect(imageSize(webp, sniffImage(webp)!)).toEqual({ width: 100, height: 50 })
  })

  it('refuses text, SVG, and cut-off headers', () => {
    expect(sniffImage(bytes('hello, world'))).toBeNull()
    expect(sniffImage(bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBeNull()
    expect(looksLikeSvg(bytes('<?xml version="1.0"?>\n<svg></svg>'))).toBe(true)
    expect(imageSize(pngBytes().subarray(0, 14), { mime: 'image/png', ext: 'png' })).toBeNull()
  })

  it('names the problem in the user’s language and says nothing was stored', () => {
    const limits = { maxBytes: 1000, maxPixels: 100 }
    const en = worldTexts('en')
    expect(() => checkImage(bytes('%PDF-1.7'), 'report.pdf', limits, en)).toThrow(
      '"report.pdf" is not a supported image (PNG, JPEG, WebP or GIF only). Nothing was stored.',
    )
    expect(() => checkImage(bytes('<svg/>'), 'a.svg', limits, en)).toThrow(/SVG files can carry scripts/)
    expect(() => checkImage(pngBytes(20, 20), 'big.png', limits, en)).toThrow(/20×20 pixels/)
    expect(checkImage(pngBytes(5, 5), 'ok.png', limits, en).mime).toBe('image/png')
  })

  it('takes limits from the environment, defaulting to 20 MB', () => {
    expect(imageLimits({}).maxBytes).toBe(20 * 1024 * 1024)
    expect(imageLimits({ LOOMVERSE_MAX_IMAGE_MB: '5' }).maxBytes).toBe(5 * 1024 * 1024)
    expect(imageLimits({ LOOMVERSE_MAX_IMAGE_MB: 'lots' }).maxBytes).toBe(20 * 1024 * 1024)
    expect(decodeBase64('data:image/png;base64,aGk=').toString()).toBe('hi')
  })
})
