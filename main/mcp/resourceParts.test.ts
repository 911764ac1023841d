import { describe, expect, it } from 'vitest'
import { ATTACHMENT_LIMIT_BYTES, resourceParts } from './resourceParts'

// What a server sent, larger than the stdio reader would pass whole (a Streamable HTTP server
// sends it whole): the part over the limit refuses the resource, naming it, its type and size.

describe('resourceParts', () => {
  it('refuses a part over the attachment limit, naming it with its type and size', () => {
    const blob = Buffer.alloc(ATTACHMENT_LIMIT_BYTES + 1024 * 1024).toString('base64')
    expect(() =>
      resourceParts('files://scan', {
        contents: [{ uri: 'files://scan.tiff', mimeType: 'image/tiff', blob }],
        cut: null,
      }),
    ).toThrow('"files://scan.tiff" (image/tiff) is 21.0 MiB; an attachment may be at most 20.0 MiB')
  })

  it('takes a part at the limit, and names a picture type a model is not sent as a file', () => {
    const blob = Buffer.alloc(ATTACHMENT_LIMIT_BYTES).toString('base64')
    expect(
      resourceParts('files://scan', {
        contents: [{ uri: 'files://scan.tiff', mimeType: 'image/tiff', blob }],
        cut: null,
      }),
    ).toEqual({
      text: '',
      note: null,
      images: [],
      files: [{ uri: 'files://scan.tiff', mime: 'image/tiff', bytes: ATTACHMENT_LIMIT_BYTES }],
    })
  })
})
