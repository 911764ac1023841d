import { useEffect } from 'react'
import type { Settings } from '@shared/contract'

/** Puts the chosen theme on <html data-theme>; `system` follows the OS and its later changes. */
export function useTheme(theme: Settings['theme'] | undefined): void {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    const apply = () => {
      const resolved = theme === 'light' || theme === 'dark' ? theme : media.matches ? 'dark' : 'light'
      document.documentElement.dataset.theme = resolved
    }
    apply()
    media.addEventListener('change', apply)
    return () => media.removeEventListener('change', apply)
  }, [theme])
}
