import type { App } from '../store'

/**
 * Every keyboard shortcut and toolbar action in one place (excalidraw's pattern): a command
 * says when it applies and what it does; the UI only looks commands up by id.
 */
export interface Command {
  id: string
  /** i18n key of the label. */
  label: string
  keyTest?: (e: KeyboardEvent) => boolean
  enabled: (s: App) => boolean
  run: (s: App) => void
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey

export const commands: Command[] = [
  {
    id: 'undo',
    label: 'graph.undo',
    keyTest: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
    enabled: (s) => s.undo.can_undo,
    run: (s) => void s.undoEdit(),
  },
  {
    id: 'redo',
    label: 'graph.redo',
    keyTest: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y'),
    enabled: (s) => s.undo.can_redo,
    run: (s) => void s.redoEdit(),
  },
]

export function command(id: string): Command {
  const found = commands.find((c) => c.id === id)
  if (!found) throw new Error(`no command ${id}`)
  return found
}

/** Text fields keep their own undo: graph shortcuts apply only outside them. */
export function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  )
}
