import { useEffect } from 'react'
import type { Settings } from '@shared/contract'
import { pickLanguage, setLanguage } from '../i18n'

export function useLanguage(language: Settings['language'] | undefined): void {
  useEffect(() => {
    if (language) void setLanguage(pickLanguage(language, navigator.languages))
  }, [language])
}
