import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import type { Settings } from '@shared/contract'
import { en } from './en'
import { ja } from './ja'

export type UiLanguage = 'ja' | 'en'

/** `auto` follows the OS/browser: Japanese when its first preference is Japanese, else English. */
export function pickLanguage(setting: Settings['language'], preferred: readonly string[]): UiLanguage {
  if (setting !== 'auto') return setting
  return preferred[0]?.toLowerCase().startsWith('ja') ? 'ja' : 'en'
}

export async function initI18n(language: UiLanguage): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: en }, ja: { translation: ja } },
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes
  })
  document.documentElement.lang = language
}

export async function setLanguage(language: UiLanguage): Promise<void> {
  if (i18next.language === language) return
  await i18next.changeLanguage(language)
  document.documentElement.lang = language
}
