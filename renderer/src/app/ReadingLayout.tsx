import { Columns2, MessageSquareText, Network } from 'lucide-react'
import { useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../store'
import { MAX_SPLIT, MIN_SPLIT } from '../store/transcriptSlice'
import type { ReadingLayout as Layout } from '../store/transcriptState'
import { Composer } from './Composer'
import { GraphCanvas } from '../features/graph/GraphCanvas'
import { Transcript } from '../features/transcript/Transcript'
import { SceneButton } from '../features/scene/SceneButton'
import '../features/transcript/transcript.css'

const views: Array<{ layout: Layout; label: string; Icon: typeof Network }> = [
  { layout: 'transcript', label: 'transcript.viewTranscript', Icon: MessageSquareText },
  { layout: 'both', label: 'transcript.viewBoth', Icon: Columns2 },
  { layout: 'graph', label: 'transcript.viewGraph', Icon: Network },
]

/**
 * The conversation area: the transcript (with the composer under it) and the graph as its map,
 * side by side with a splitter between them, or either one alone. The choice is remembered.
 */
export function ReadingLayout() {
  const { t } = useTranslation()
  const hasFlow = useApp((s) => s.flow !== null)
  const flowName = useApp((s) => s.flow?.name)
  const layout = useApp((s) => s.readingLayout)
  const setLayout = useApp((s) => s.setReadingLayout)
  const split = useApp((s) => s.readingSplit)
  const panes = useRef<HTMLDivElement>(null)
  // No conversation open: the canvas's empty state says what to do, across the whole area.
  const shown: Layout = hasFlow ? layout : 'graph'

  return (
    <main className={`reading-layout layout-${shown}`} aria-label={t('transcript.area')}>
      {hasFlow && (
        <div className="reading-bar">
          <h2 className="reading-title" title={flowName}>
            {flowName}
          </h2>
          <SceneButton />
          <div className="view-switch" role="group" aria-label={t('transcript.view')}>
            {views.map(({ layout: l, label, Icon }) => (
              <button key={l} type="button" aria-pressed={layout === l} title={t(label)} onClick={() => setLayout(l)}>
                <Icon size={15} aria-hidden />
                <span>{t(label)}</span>
              </button>
            ))}
          </div>
        </div>
      )}
      <div
        ref={panes}
        className="reading-panes"
        style={shown === 'both' ? { gridTemplateColumns: `minmax(0, ${split}fr) 8px minmax(0, ${1 - split}fr)` } : {}}
      >
        {shown !== 'graph' && (
          <div className="reading-pane transcript-pane">
            <Transcript />
            <Composer />
          </div>
        )}
        {shown === 'both' && <Splitter panes={panes} />}
        {/* Kept mounted while hidden: it lays out new nodes, and placing the next turn needs that. */}
        <div className="reading-pane graph-pane" hidden={shown === 'transcript'}>
          <GraphCanvas />
          {shown === 'graph' && hasFlow && <Composer />}
        </div>
      </div>
    </main>
  )
}

/** Drag, or focus and use the arrow keys (Home / End for the limits), to share the width. */
function Splitter({ panes }: { panes: React.RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation()
  const split = useApp((s) => s.readingSplit)
  const setSplit = useApp((s) => s.setReadingSplit)

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault()
    e.currentTarget.setPointerCapture(e.pointerId)
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!e.currentTarget.hasPointerCapture(e.pointerId)) return
    const box = panes.current?.getBoundingClientRect()
    if (box && box.width > 0) setSplit((e.clientX - box.left) / box.width)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 0.1 : 0.03
    const next =
      e.key === 'ArrowLeft'
        ? split - step
        : e.key === 'ArrowRight'
          ? split + step
          : e.key === 'Home'
            ? MIN_SPLIT
            : e.key === 'End'
              ? MAX_SPLIT
              : null
    if (next === null) return
    e.preventDefault()
    setSplit(next)
  }

  return (
    <div
      className="reading-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('transcript.splitter')}
      aria-valuemin={Math.round(MIN_SPLIT * 100)}
      aria-valuemax={Math.round(MAX_SPLIT * 100)}
      aria-valuenow={Math.round(split * 100)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onKeyDown={onKeyDown}
    />
  )
}
