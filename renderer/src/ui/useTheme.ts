import { useEffect, useSyncExternalStore } from 'react'
import type { Settings } from '@shared/contract'

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)')
const subscribe = (changed: () => void) => {
  const media = darkQuery()
  media.addEventListener('change', changed)
  return () => media.removeEventListener('change', changed)
}

/** The theme in effect: the one chosen, or for `system` the OS's, following its later changes. */
export function useResolvedTheme(theme: Settings['theme'] | undefined): 'light' | 'dark' {
  const osDark = useSyncExternalStore(subscribe, () => darkQuery().matches)
  return theme === 'light' || theme === 'dark' ? theme : osDark ? 'dark' : 'light'
}

/** Puts the theme in effect on <html data-theme>. */
export function useTheme(theme: Settings['theme'] | undefined): void {
  const resolved = useResolvedTheme(theme)
  useEffect(() => {
    document.documentElement.dataset.theme = resolved
  }, [resolved])
}
