// The pictures the fake "generates": tiny real PNGs whose colours come from the prompt, so the
// same prompt always gives the same bytes and different prompts give different ones.

import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { encodePng } from './png'

/** Width and height in pixels: small, yet a real picture with a real size. */
const side = 4

export function pictureFor(model: string, prompt: string): Buffer {
  const seed = createHash('sha256').update(`${model}\u0000${prompt}`).digest()
  const rgb = new Uint8Array(side * side * 3)
  // 48 bytes of colour from a 32-byte hash: the seed repeats, shifted, over the pixels.
  for (let i = 0; i < rgb.length; i++) rgb[i] = seed[i % seed.length]! ^ (i * 37)
  return encodePng(side, side, rgb)
}

/** Where the fake serves pictures handed out as links, as OpenAI's pre-signed storage does: no key. */
export const pictureLinkPrefix = '/openai-files/images/'

/** Pictures handed out as links, by id, until the fake is reset. */
export class PictureLinks {
  private readonly pictures = new Map<string, Buffer>()

  /** Keeps the picture and returns the path of its link. */
  add(id: string, png: Buffer): string {
    this.pictures.set(id, png)
    return `${pictureLinkPrefix}${id}.png`
  }

  /** Answers a GET of a link; false when the path is not one. */
  serve(path: string, res: ServerResponse): boolean {
    if (!path.startsWith(pictureLinkPrefix)) return false
    const png = this.pictures.get(path.slice(pictureLinkPrefix.length).replace(/\.png$/, ''))
    if (!png) {
      // An unknown link is a storage error, not an API error: plain text, not the API's JSON.
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('BlobNotFound')
      return true
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) })
    res.end(png)
    return true
  }

  clear(): void {
    this.pictures.clear()
  }
}
