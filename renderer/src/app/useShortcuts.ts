import { useEffect } from 'react'
import { useAppStore } from '../store'
import { commands, isTyping } from './commands'

export function useShortcuts(): void {
  const store = useAppStore()
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return
      const state = store.getState()
      const hit = commands.find((c) => c.keyTest?.(e) && c.enabled(state))
      if (!hit) return
      e.preventDefault()
      hit.run(state)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [store])
}
