import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { nodeCommandLabel, nodeCommands } from '../../store/commands'
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

  // Opened near the window's bottom or right edge, the menu moves up or left to stay whole.
  const ref = useRef<HTMLDivElement>(null)
  const [at, setAt] = useState({ left: menu.x, top: menu.y })
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect()
    if (box) setAt(placeInside(menu, box, { width: window.innerWidth, height: window.innerHeight }))
  }, [menu])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  return (
    <div ref={ref} className="context-menu" role="menu" style={at} aria-label={t('graph.nodeMenu')}>
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

const EDGE = 8

/** Where a menu of this size opened at this point fits whole in the window (an edge's margin kept). */
export function placeInside(
  point: { x: number; y: number },
  size: { width: number; height: number },
  room: { width: number; height: number },
): { left: number; top: number } {
  const fit = (start: number, length: number, room: number) =>
    Math.max(EDGE, start + length + EDGE > room ? room - length - EDGE : start)
  return { left: fit(point.x, size.width, room.width), top: fit(point.y, size.height, room.height) }
}
