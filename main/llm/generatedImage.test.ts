import { describe, expect, it } from 'vitest'
import { imageMime, toGeneratedImage } from './generatedImage'

const bytes = (...values: Array<number | string>) =>
  Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'ascii') : Buffer.from([v]))))

describe('imageMime', () => {
  it('tells PNG, JPEG and WebP apart by their first bytes', () => {
    expect(imageMime(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe('image/png')
    expect(imageMime(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg')
    expect(imageMime(bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 '))).toBe('image/webp')
  })

  it('knows nothing else, however it is named', () => {
    expect(imageMime(bytes('RIFF', 0x24, 0, 0, 0, 'WAVEfmt '))).toBeNull()
    expect(imageMime(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull()
    expect(imageMime(new Uint8Array())).toBeNull()
  })
})

describe('toGeneratedImage', () => {
  it('keeps the base64 and types it by the bytes, whatever the provider claimed', () => {
    const jpeg = bytes(0xff, 0xd8, 0xff, 0xdb, 0, 0x43).toString('base64')
    expect(toGeneratedImage('gemini', 'gemini-2.5-flash-image', jpeg)).toEqual({
      mime: 'image/jpeg',
      data_base64: jpeg,
    })
  })

  it('refuses bytes that are no picture, naming the provider and model', () => {
    const text = Buffer.from('Sorry, I cannot draw that.').toString('base64')
    expect(() => toGeneratedImage('openai', 'gpt-image-1', text)).toThrow(
      expect.objectContaining({
        failure: 'unavailable',
        message: 'OpenAI (gpt-image-1) sent something that is not a picture',
      }),
    )
  })
})
