import { useReactFlow } from '@xyflow/react'
import { useTranslation } from 'react-i18next'
import { command } from '../../app/commands'
import { useApp, useAppStore } from '../../store'
import { FIT_PADDING, layoutInWorker } from './layout'

export function CanvasToolbar() {
  const { t } = useTranslation()
  const store = useAppStore()
  const undo = useApp((s) => s.undo)
  const { fitView } = useReactFlow()

  const tidy = async () => {
    const flow = store.getState().flow
    if (!flow) return
    const laid = await layoutInWorker({ nodes: flow.nodes.map((m) => m.id), edges: flow.connections })
    await store.getState().setPositions(Object.entries(laid).map(([id, position]) => ({ id, position })))
    void fitView({ duration: 250, padding: FIT_PADDING })
  }

  const build = async () => {
    const { flowId, invoke, toast } = store.getState()
    if (!flowId) return
    const result = await invoke('build_summaries', { flow_id: flowId })
    if (result)
      toast('info', result.queued > 0 ? t('graph.buildQueued', { count: result.queued }) : t('graph.buildNothing'))
  }

  return (
    <div className="canvas-toolbar" role="toolbar" aria-label={t('graph.toolbar')}>
      <button
        type="button"
        disabled={!undo.can_undo}
        title={undo.undo_label ? t('graph.undoWhat', { what: undo.undo_label }) : undefined}
        onClick={() => command('undo').run(store.getState())}
      >
        {t('graph.undo')}
      </button>
      <button
        type="button"
        disabled={!undo.can_redo}
        title={undo.redo_label ? t('graph.redoWhat', { what: undo.redo_label }) : undefined}
        onClick={() => command('redo').run(store.getState())}
      >
        {t('graph.redo')}
      </button>
      <button type="button" onClick={() => void tidy()}>
        {t('graph.tidy')}
      </button>
      <button type="button" title={t('graph.buildHint')} onClick={() => void build()}>
        {t('graph.build')}
      </button>
    </div>
  )
}
