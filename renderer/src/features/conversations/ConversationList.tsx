import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Plus, Search, X } from 'lucide-react'
import { useApp } from '../../store'
import { ConversationRow, ROW_HEIGHT } from './ConversationRow'
import { filterConversations } from './filterConversations'
import { relativeTime } from './relativeTime'
import './conversations.css'

/** How often the "5 min. ago" times are brought up to date. */
const CLOCK_MS = 30_000

/**
 * Every conversation, pinned first then by last activity: open one by clicking its row;
 * pin, rename, open its settings or delete it (with Undo) from the row. Rows are virtualised,
 * so a list of thousands renders the few dozen on screen.
 */
export function ConversationList() {
  const { t, i18n } = useTranslation()
  const flows = useApp((s) => s.flows)
  const flowId = useApp((s) => s.flowId)
  const personas = useApp((s) => s.personas)
  const createFlow = useApp((s) => s.createFlow)
  const [query, setQuery] = useState('')
  const [now, setNow] = useState(() => Date.now())
  const scroller = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_MS)
    return () => clearInterval(timer)
  }, [])

  const personaNames = useMemo(() => new Map(personas.map((p) => [p.id, p.name])), [personas])
  const visible = useMemo(
    () => filterConversations(flows, query, (id) => (id ? (personaNames.get(id) ?? '') : '')),
    [flows, query, personaNames],
  )

  // The virtualiser's functions change as it measures; this component is not memoised by the
  // compiler, and rows get plain values (their offset), never the virtualiser itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (i) => visible[i]!.id,
  })

  // The open conversation stays in view when it changes (a new one, one opened by a link).
  const openIndex = visible.findIndex((f) => f.id === flowId)
  useEffect(() => {
    if (openIndex >= 0) virtualizer.scrollToIndex(openIndex, { align: 'auto' })
  }, [openIndex, virtualizer])

  /** Up and Down move between rows (each row's open button), Home and End to the ends. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement
    if (!target.classList.contains('conv-row-open')) return
    const at = Number(target.closest('li')?.dataset.index)
    const next =
      e.key === 'ArrowDown'
        ? at + 1
        : e.key === 'ArrowUp'
          ? at - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? visible.length - 1
              : null
    if (next === null || Number.isNaN(at) || next < 0 || next >= visible.length) return
    e.preventDefault()
    virtualizer.scrollToIndex(next, { align: 'auto' })
    // The row may be drawn only after the scroll: focus it on the next frame.
    requestAnimationFrame(() =>
      scroller.current?.querySelector<HTMLElement>(`li[data-index="${next}"] .conv-row-open`)?.focus(),
    )
  }

  const language = i18n.language === 'ja' ? 'ja' : 'en'
  return (
    <div className="conv-list">
      <div className="conv-list-top">
        <button type="button" className="primary conv-new" onClick={() => void createFlow(t('graph.defaultFlowName'))}>
          <Plus size={16} aria-hidden />
          {t('conversations.new')}
        </button>
        <div className="conv-filter">
          <Search size={14} aria-hidden className="conv-filter-icon" />
          <input
            type="search"
            value={query}
            aria-label={t('conversations.filter')}
            placeholder={t('conversations.filterPlaceholder')}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.stopPropagation()
                setQuery('')
              }
            }}
          />
          {query && (
            <button
              type="button"
              className="conv-filter-clear"
              aria-label={t('conversations.clearFilter')}
              title={t('conversations.clearFilter')}
              onClick={() => setQuery('')}
            >
              <X size={14} aria-hidden />
            </button>
          )}
        </div>
      </div>
      {visible.length === 0 ? (
        <p className="empty conv-empty">
          {flows.length === 0 ? t('conversations.empty') : t('conversations.noMatch', { query: query.trim() })}
        </p>
      ) : (
        <div className="conv-scroll" ref={scroller} onKeyDown={onKeyDown}>
          <ul className="conv-rows" aria-label={t('conversations.tab')} style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const flow = visible[item.index]!
              return (
                <ConversationRow
                  key={item.key}
                  flow={flow}
                  index={item.index}
                  size={visible.length}
                  top={item.start}
                  open={flow.id === flowId}
                  personaName={flow.persona_id ? (personaNames.get(flow.persona_id) ?? null) : null}
                  when={relativeTime(flow.last_activity, now, language)}
                />
              )
            })}
          </ul>
        </div>
      )}
    </div>
  )
}
