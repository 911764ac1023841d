import { useEffect } from 'react'
import { useAppStore } from '../store'
import { commands, isTyping } from '../store/commands'

export function useShortcuts(): void {
  const store = useAppStore()
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = isTyping(e.target)
      const state = store.getState()
      const hit = commands.find((c) => (!typing || c.global) && c.keyTest?.(e) && c.enabled(state))
      if (!hit) return
      e.preventDefault()
      hit.run(state)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [store])
}
