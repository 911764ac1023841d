import { useReactFlow } from '@xyflow/react'
import { LayoutGrid, Redo2, Sparkles, Undo2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { command } from '../../store/commands'
import { useApp, useAppStore } from '../../store'
import { NODE_HEIGHT, layoutInWorker } from './layout'

/** `fitAll` fits the view to every card (the canvas gives React Flow only those around the view). */
export function CanvasToolbar({ fitAll }: { fitAll: (duration?: number) => void }) {
  const { t } = useTranslation()
  const store = useAppStore()
  const undo = useApp((s) => s.undo)
  const { getNodes } = useReactFlow()

  const tidy = async () => {
    const flow = store.getState().flow
    if (!flow) return
    // Expanded cards are laid out at the height they were measured at, so none overlaps another.
    const heights: Record<string, number> = {}
    for (const n of getNodes())
      if (n.measured?.height && n.measured.height > NODE_HEIGHT) heights[n.id] = n.measured.height
    const laid = await layoutInWorker({ nodes: flow.nodes.map((m) => m.id), edges: flow.connections, heights })
    await store.getState().setPositions(Object.entries(laid).map(([id, position]) => ({ id, position })))
    fitAll(250)
  }

  const build = async () => {
    const { flowId, invoke, toast } = store.getState()
    if (!flowId) return
    const result = await invoke('build_summaries', { flow_id: flowId })
    if (result)
      toast('info', result.queued > 0 ? t('graph.buildQueued', { count: result.queued }) : t('graph.buildNothing'))
  }

  // Icons with their names as labels and tooltips: the strip fits a narrow canvas in any language.
  return (
    <div className="canvas-toolbar" role="toolbar" aria-label={t('graph.toolbar')}>
      <button
        type="button"
        disabled={!undo.can_undo}
        aria-label={t('graph.undo')}
        title={undo.undo_label ? t('graph.undoWhat', { what: undo.undo_label }) : t('graph.undo')}
        onClick={() => command('undo').run(store.getState())}
      >
        <Undo2 size={16} aria-hidden />
      </button>
      <button
        type="button"
        disabled={!undo.can_redo}
        aria-label={t('graph.redo')}
        title={undo.redo_label ? t('graph.redoWhat', { what: undo.redo_label }) : t('graph.redo')}
        onClick={() => command('redo').run(store.getState())}
      >
        <Redo2 size={16} aria-hidden />
      </button>
      <button type="button" aria-label={t('graph.tidy')} title={t('graph.tidy')} onClick={() => void tidy()}>
        <LayoutGrid size={16} aria-hidden />
      </button>
      <button
        type="button"
        aria-label={t('graph.build')}
        title={`${t('graph.build')}: ${t('graph.buildHint')}`}
        onClick={() => void build()}
      >
        <Sparkles size={16} aria-hidden />
      </button>
    </div>
  )
}
