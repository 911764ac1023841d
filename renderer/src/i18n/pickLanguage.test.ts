import { describe, expect, it } from 'vitest'
import { en } from './en'
import { pickLanguage } from './index'
import { ja } from './ja'

describe('UI language', () => {
  it('follows the system on auto: Japanese for any ja locale, English otherwise', () => {
    expect(pickLanguage('auto', ['ja-JP', 'en-US'])).toBe('ja')
    expect(pickLanguage('auto', ['ja'])).toBe('ja')
    expect(pickLanguage('auto', ['en-GB', 'ja-JP'])).toBe('en')
    expect(pickLanguage('auto', [])).toBe('en')
  })

  it('obeys an explicit choice over the system locale', () => {
    expect(pickLanguage('en', ['ja-JP'])).toBe('en')
    expect(pickLanguage('ja', ['fr-FR'])).toBe('ja')
  })

  it('has a Japanese string for every English one and no untranslated copies', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'string' ? [prefix + k] : keys(v as object, `${prefix}${k}.`),
      )
    expect(keys(ja).sort()).toEqual(keys(en).sort())
    const same = keys(en).filter((k) => {
      const get = (o: object) => k.split('.').reduce<unknown>((acc, part) => (acc as Record<string, unknown>)[part], o)
      return get(en) === get(ja) && !/\{\{/.test(String(get(en))) && get(en) !== 'Loomverse' // the product's name is the same in both
    })
    expect(same).toEqual([])
  })
})
