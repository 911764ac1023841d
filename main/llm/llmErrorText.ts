import type { Language } from '../kernel/language'
import { llmErrorText } from '@shared/llmErrorText'

export { llmErrorText }

/** "…, retrying in 4 s" in the UI's language. */
export function retryingText(message: string, seconds: number, language: Language): string {
  return language === 'ja'
    ? `${llmErrorText(message, 'ja')}。${seconds} 秒後に再試行します`
    : `${message}, retrying in ${seconds} s`
}
