import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { nodeCommandLabel, nodeCommands } from '../../app/commands'
import { useApp, useAppStore } from '../../store'

export interface NodeMenuState {
  nodeId: string
  x: number
  y: number
}

/** The node's context menu: the node commands of the registry, in order. */
export function NodeMenu({ menu, onClose }: { menu: NodeMenuState; onClose: () => void }) {
  const { t } = useTranslation()
  const store = useAppStore()
  // Flat lists of primitives, so the menu re-renders only when a label or availability changes.
  const labels = useApp(useShallow((s) => nodeCommands.map((c) => nodeCommandLabel(c, s, menu.nodeId))))
  const enabled = useApp(useShallow((s) => nodeCommands.map((c) => c.enabled(s, menu.nodeId))))

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  return (
    <div className="context-menu" role="menu" style={{ left: menu.x, top: menu.y }} aria-label={t('graph.nodeMenu')}>
      {nodeCommands.map((c, i) => (
        <button
          key={c.id}
          type="button"
          role="menuitem"
          className={c.danger ? 'danger' : undefined}
          disabled={!enabled[i]}
          onClick={() => {
            onClose()
            c.run(store.getState(), menu.nodeId)
          }}
        >
          {t(labels[i]!)}
        </button>
      ))}
    </div>
  )
}
