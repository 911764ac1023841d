import { describe, expect, it } from 'vitest'
import { opensExternally } from './externalLinks'

describe('links a window hands to the system browser', () => {
  it('opens web pages and mail, and refuses everything that could run or read something', () => {
    for (const url of ['https://example.org/a?b=1', 'http://localhost:3000/', 'mailto:someone@example.org'])
      expect(opensExternally(url), url).toBe(true)
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://open', 'ms-msdt:/id', 'not a url', ''])
      expect(opensExternally(url), url).toBe(false)
  })
})
