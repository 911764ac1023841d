import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../../store'
import { placeChild } from './layout'

export interface NodeMenuState {
  nodeId: string
  x: number
  y: number
}

/** The node's context menu: retry, edit prompt, branch from here, pin, copy, delete. */
export function NodeMenu({ menu, onClose }: { menu: NodeMenuState; onClose: () => void }) {
  const { t } = useTranslation()
  const store = useAppStore()
  const pinned = useApp((s) => s.members[menu.nodeId]?.pinned ?? false)
  const openModal = useApp((s) => s.openModal)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  const run = (fn: () => void) => () => {
    onClose()
    fn()
  }
  const s = () => store.getState()
  const node = () => s().nodes[menu.nodeId]
  const siblingPosition = () => {
    const { flow, positions } = s()
    const parents = flow?.connections.filter((c) => c.to === menu.nodeId).map((c) => c.from) ?? []
    return flow ? placeChild(flow, positions, parents) : undefined
  }

  return (
    <div className="context-menu" role="menu" style={{ left: menu.x, top: menu.y }} aria-label={t('graph.nodeMenu')}>
      <button type="button" role="menuitem" onClick={run(() => void s().retry(menu.nodeId, siblingPosition()))}>
        {t('graph.retry')}
      </button>
      <button
        type="button"
        role="menuitem"
        onClick={run(() => openModal({ name: 'edit_prompt', nodeId: menu.nodeId }))}
      >
        {t('graph.editPrompt')}
      </button>
      <button
        type="button"
        role="menuitem"
        onClick={run(() => {
          s().select(menu.nodeId)
          document.getElementById('composer-input')?.focus()
        })}
      >
        {t('graph.branchHere')}
      </button>
      <button type="button" role="menuitem" onClick={run(() => void s().setPinned(menu.nodeId, !pinned))}>
        {pinned ? t('graph.unpin') : t('graph.pin')}
      </button>
      <button
        type="button"
        role="menuitem"
        onClick={run(() => {
          const n = node()
          if (n) void navigator.clipboard?.writeText(n.response ? `${n.prompt}\n\n${n.response}` : n.prompt)
        })}
      >
        {t('graph.copy')}
      </button>
      <button type="button" role="menuitem" onClick={run(() => s().showWhyRemembered(menu.nodeId))}>
        {t('memory.whyRemembered')}
      </button>
      <button
        type="button"
        role="menuitem"
        className="danger"
        onClick={run(() => openModal({ name: 'delete_node', nodeId: menu.nodeId }))}
      >
        {t('graph.delete')}
      </button>
    </div>
  )
}
