import i18next from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { en } from '../i18n/en'
import { errorText } from './errorText'

beforeAll(async () => {
  await i18next.init({ resources: { en: { translation: en } }, lng: 'en', interpolation: { escapeValue: false } })
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
})
