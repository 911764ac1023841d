import { en } from '../../renderer/src/i18n/en'
import { ja } from '../../renderer/src/i18n/ja'

/** The UI's own words in a language, so one spec can drive the app in English and in Japanese. */
export function words(language: 'en' | 'ja') {
  return language === 'ja' ? ja : en
}

/** A message with its `{{name}}` places filled, as i18next fills them. */
export function say(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`))
}
