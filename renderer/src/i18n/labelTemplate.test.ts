import i18next from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { en } from './en'
import { ja } from './ja'
import { labelTemplate } from './labelTemplate'

describe('labelTemplate', () => {
  beforeAll(async () => {
    await i18next.init({
      resources: { en: { translation: en }, ja: { translation: ja } },
      lng: 'en',
      interpolation: { escapeValue: false },
    })
  })

  it('fills a translated label as t would, in both languages', async () => {
    for (const lng of ['en', 'ja']) {
      await i18next.changeLanguage(lng)
      const t = i18next.t.bind(i18next)
      expect(labelTemplate(t, 'canvas.nodeLabel', ['index'])({ index: 12 })).toBe(t('canvas.nodeLabel', { index: 12 }))
      const edge = labelTemplate(t, 'canvas.edgeLabel', ['from', 'to'])
      expect(edge({ from: 3, to: 40 })).toBe(t('canvas.edgeLabel', { from: 3, to: 40 }))
    }
    expect(labelTemplate(i18next.t.bind(i18next), 'canvas.edgeLabel', ['from', 'to'])({ from: 1, to: 2 })).toBe(
      '#1 から #2 へ',
    )
  })
})
