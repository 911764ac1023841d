import i18next from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { en } from '../i18n/en'
import { ja } from '../i18n/ja'
import { errorText } from './errorText'

beforeAll(async () => {
  await i18next.init({
    resources: { en: { translation: en }, ja: { translation: ja } },
    lng: 'en',
    interpolation: { escapeValue: false },
  })
})

describe('errors as the user reads them', () => {
  it('never shows the contract’s method names', () => {
    const text = errorText({
      code: 'bad_input',
      message: 'chat_send: prompt: Too big: expected string to have <=2000000 characters',
    })
    expect(text).not.toMatch(/chat_send/)
    expect(text).toContain('prompt: Too big')
    expect(
      errorText({ code: 'unavailable', message: 'set_provider: no answer from Loomverse within 30 s' }),
    ).not.toMatch(/set_provider/)
  })

  it('keeps a message that merely has a colon', () => {
    expect(errorText({ code: 'internal', message: 'Gemini: quota exceeded' })).toContain('Gemini: quota exceeded')
  })

  it('words what main said for the user in the window’s language, its params filled in', async () => {
    const conflict = {
      code: 'conflict' as const,
      message: 'an MCP server is already named "files"',
      key: 'mcp_name_taken' as const,
      params: { name: 'files' },
    }
    try {
      await i18next.changeLanguage('ja')
      expect(errorText(conflict)).toBe('「files」という名前の MCP サーバーはすでにあります。')
      expect(errorText({ code: 'conflict', message: 'this reply is still streaming', key: 'reply_streaming' })).toMatch(
        /^この返信はまだ書かれている途中です/,
      )
      // An error main said in English only is shown as it is.
      expect(errorText({ code: 'conflict', message: 'node 1 is busy' })).toBe('node 1 is busy')
    } finally {
      await i18next.changeLanguage('en')
    }
    expect(errorText(conflict)).toBe('An MCP server is already named "files".')
  })
})
