import { useVirtualizer } from '@tanstack/react-virtual'
import { ArrowDown } from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../../store'
import { flowShape, readingPath } from '../../store/activePath'
import { TranscriptTurn } from './TranscriptTurn'
import './transcript.css'

const noAlternatives: readonly string[] = []
/** A turn's height before it is measured: a short prompt and a few lines of reply. */
const ESTIMATED_TURN = 220
/** Within this many pixels of the end, the view counts as following the newest reply. */
const FOLLOW_PX = 48

/**
 * The open conversation's active path as a chat transcript: every turn whole, the newest in
 * view unless the reader scrolled up. Virtualised: only the turns on screen are rendered, so a
 * path of thousands of turns scrolls as smoothly as a short one.
 */
export function Transcript() {
  const { t } = useTranslation()
  const store = useAppStore()
  const flow = useApp((s) => s.flow)
  // A story's conversation reads as its story: the same transcript, set as prose.
  const story = useApp((s) => s.story !== null && s.story.flow_id === s.flowId)
  const leafId = useApp((s) => s.leafId)
  const selectedId = useApp((s) => s.selectedId)
  const leafIndex = useApp((s) => (s.leafId ? s.members[s.leafId]?.index : undefined))
  const selectedIndex = useApp((s) => (s.selectedId ? s.members[s.selectedId]?.index : undefined))
  const path = useMemo(() => (flow ? readingPath(flow, leafId) : []), [flow, leafId])
  const alternatives = flow ? flowShape(flow).alternatives : null
  const scrollRef = useRef<HTMLDivElement>(null)
  const [atEnd, setAtEnd] = useState(true)
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const toggleExpanded = useCallback(
    (id: string) =>
      setExpanded((prev) => {
        const next = new Set(prev)
        if (!next.delete(id)) next.add(id)
        return next
      }),
    [],
  )

  const getItemKey = useCallback((i: number) => path[i] ?? i, [path])
  // The virtualizer is a mutable object by design; this component never memoises what it returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: path.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_TURN,
    getItemKey,
    overscan: 4,
    // Scrolling moves the rows in the DOM directly; React renders only when other turns come into view.
    directDomUpdates: true,
  })

  // Following the newest reply: on once the reader is at the end, off once they scroll up.
  // Growth (a new turn, a streaming reply, a row measured, a big flow's earlier turns coming in
  // above) keeps the view at the end: it may fire a scroll event before the view is put back at
  // the end, and only a move up is the reader's own (or a jump to a turn, which says so).
  const following = useRef(true)
  const rowsRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = scrollRef.current
    const rows = rowsRef.current
    if (!el || !rows) return
    let lastTop = el.scrollTop
    // While a big flow's earlier turns come in (and their rows are measured), the list moves under
    // the reader by itself: then only their own hand (wheel, touch, keys, the scrollbar) stops
    // the following.
    let touched = false
    const touch = () => {
      touched = true
    }
    const onScroll = () => {
      const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_PX
      const own = touched || store.getState().flowLoading === null
      if (atEnd) following.current = true
      else if (el.scrollTop < lastTop && own) following.current = false
      lastTop = el.scrollTop
      touched = false
      setAtEnd(following.current)
    }
    const hands = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const
    for (const e of hands) el.addEventListener(e, touch, { passive: true })
    const stick = () => {
      if (following.current) el.scrollTop = el.scrollHeight
    }
    el.addEventListener('scroll', onScroll, { passive: true })
    const grown = new ResizeObserver(stick)
    grown.observe(rows)
    grown.observe(el)
    return () => {
      el.removeEventListener('scroll', onScroll)
      for (const e of hands) el.removeEventListener(e, touch)
      grown.disconnect()
    }
  }, [store])
  const rowsRefs = useCallback(
    (el: HTMLDivElement | null) => {
      rowsRef.current = el
      virtualizer.containerRef(el)
    },
    [virtualizer],
  )
  const toEnd = useCallback(() => {
    following.current = true
    setAtEnd(true)
    if (path.length > 0) virtualizer.scrollToIndex(path.length - 1, { align: 'end' })
  }, [path.length, virtualizer])

  // A conversation opens at its newest turn.
  const flowId = flow?.id
  useEffect(() => {
    setExpanded(new Set())
    toEnd()
    // Only a newly opened conversation moves the view here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [flowId])

  // A node chosen elsewhere (the graph, search, a new reply) comes into view once the path holds
  // it; one chosen here stays where the reader put it.
  const lastSelected = useRef(selectedId)
  const pending = useRef<string | null>(null)
  useEffect(() => {
    if (lastSelected.current !== selectedId) {
      lastSelected.current = selectedId
      const chosen = store.getState().choseInTranscript
      if (chosen !== null) store.setState({ choseInTranscript: null })
      pending.current = selectedId !== null && chosen !== selectedId ? selectedId : null
    }
    const id = pending.current
    const i = id === null ? -1 : path.indexOf(id)
    if (i < 0) return // not on the path yet: the leaf is resolved from the selection in a moment
    pending.current = null
    if (i === path.length - 1) toEnd()
    else {
      following.current = false
      virtualizer.scrollToIndex(i, { align: 'start' })
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedId, leafId])

  // A node chosen in the graph comes into view, even when it was chosen already.
  const reveal = useApp((s) => s.reveal)
  const revealed = useRef(0)
  useEffect(() => {
    if (!reveal || reveal.seq === revealed.current) return
    const i = path.indexOf(reveal.id)
    if (i < 0) return // not on the path yet: the path follows the selection in a moment
    revealed.current = reveal.seq
    if (i === path.length - 1) toEnd()
    else {
      following.current = false
      virtualizer.scrollToIndex(i, { align: 'start' })
    }
    // Only a new request moves the view; the path it needs is resolved in the same update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal?.seq, leafId])

  // The next prompt goes under the selected node: say so when that is not the end of what is read.
  const branchPoint =
    selectedId !== null && leafId !== null && selectedId !== leafId && path.includes(selectedId)
      ? selectedIndex
      : undefined

  return (
    <section
      className={`transcript${story ? ' transcript-story' : ''}`}
      aria-label={t(story ? 'transcript.storyLabel' : 'transcript.label')}
      data-drop-label={t('canvas.dropHere')}
    >
      <div className="transcript-viewport">
        <div
          ref={scrollRef}
          className="transcript-scroll"
          role="log"
          aria-label={t('transcript.log')}
          // Scrollable by keyboard: the list takes focus and the arrow keys scroll it.
          tabIndex={0}
          data-testid="transcript"
        >
          {path.length === 0 && <p className="transcript-empty">{t('transcript.empty')}</p>}
          <div ref={rowsRefs} className="transcript-rows">
            {virtualizer.getVirtualItems().map((item) => {
              const id = path[item.index]!
              return (
                <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="transcript-row">
                  <TranscriptTurn
                    id={id}
                    alternatives={alternatives?.get(id) ?? noAlternatives}
                    last={item.index === path.length - 1}
                    expanded={expanded.has(id)}
                    onToggleExpanded={toggleExpanded}
                  />
                </div>
              )
            })}
          </div>
        </div>
        {!atEnd && path.length > 0 && (
          <button type="button" className="jump-latest" onClick={toEnd}>
            <ArrowDown size={15} aria-hidden />
            {t('transcript.jumpToLatest')}
          </button>
        )}
      </div>
      {branchPoint !== undefined && leafIndex !== undefined && (
        <p className="transcript-branch-note" role="status">
          <span>{t('transcript.branchNote', { index: branchPoint })}</span>
          <button type="button" className="link" onClick={() => leafId && store.getState().select(leafId)}>
            {t('transcript.continueAtEnd', { index: leafIndex })}
          </button>
        </p>
      )}
    </section>
  )
}
