import { describe, expect, it } from 'vitest'
import { RecentErrors, diagnosticsText, redactError } from './diagnostics'

describe('Copy diagnostics', () => {
  it('masks key-like strings and quoted text, and keeps only the first line', () => {
    const line = redactError(
      'OpenAI 401: Incorrect API key provided: sk-proj-abcdefghijklmnop1234 for prompt "tell me about my sister’s wedding"\n    at stack',
    )
    expect(line).not.toContain('sk-proj')
    expect(line).not.toContain('wedding')
    expect(line).not.toContain('at stack')
    expect(line).toContain('OpenAI 401')
    expect(redactError('google key AIzaSyA1234567890abcdefghijklmn refused')).toBe('google key [redacted] refused')
    expect(redactError('x'.repeat(500)).length).toBeLessThanOrEqual(241)
  })

  it('remembers the last 20 errors, oldest first, with their time', () => {
    const errors = new RecentErrors(() => new Date('2026-01-02T03:04:05Z'))
    for (let i = 0; i < 25; i++) errors.record(new Error(`failure ${i}`))
    expect(errors.list()).toHaveLength(20)
    expect(errors.list()[0]).toBe('2026-01-02T03:04:05.000Z Error: failure 5')
  })

  it('lists versions, paths and errors, never a key', () => {
    const text = diagnosticsText({
      app: { name: 'Loomverse', version: '0.1.0', packaged: true },
      versions: { electron: '45.4.1', node: '22.20.0' },
      os: { platform: 'darwin', arch: 'arm64', release: '25.0.0' },
      paths: { data: '/Users/a/Loomverse', logs: '/Users/a/Library/Logs/Loomverse' },
      errors: ['2026-01-02T03:04:05.000Z bad key sk-abcdefghijklmnopqrstu'],
    })
    expect(text).toContain('Loomverse 0.1.0')
    expect(text).toContain('electron: 45.4.1')
    expect(text).toContain('logs: /Users/a/Library/Logs/Loomverse')
    expect(text).toContain('Last errors (1):')
    expect(text).not.toContain('sk-abcdefghijklmnopqrstu')
    expect(
      diagnosticsText({
        app: { name: 'L', version: '1', packaged: false },
        versions: {},
        os: { platform: 'linux', arch: 'x64', release: '6' },
        paths: {},
        errors: [],
      }),
    ).toContain('No errors this run.')
  })
})
