import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp, useAppStore } from '../../store'
import { AttachedImages } from '../world/AttachedImages'
import { placeChild } from './layout'
import { useBudgetCheck } from './useBudgetCheck'

/** The prompt box under the graph. It continues from the selected node (or starts a new root). */
export function Composer() {
  const { t } = useTranslation()
  const store = useAppStore()
  const draft = useApp((s) => s.draft)
  const setDraft = useApp((s) => s.setDraft)
  const parentIndex = useApp((s) => (s.selectedId ? s.members[s.selectedId]?.index : undefined))
  const asRoot = useApp((s) => s.asRoot)
  const setAsRoot = useApp((s) => s.setAsRoot)
  const over = useBudgetCheck(draft)
  const panel = useApp((s) => s.panel)
  const togglePanel = useApp((s) => s.togglePanel)
  // One send at a time: the next prompt must continue from the node this one creates.
  const [sending, setSending] = useState(false)

  const send = async () => {
    const { flow, positions, selectedId, send: sendPrompt } = store.getState()
    const text = draft.trim()
    if (!text || !flow || sending) return
    const position = placeChild(flow, positions, selectedId ? [selectedId] : [])
    setSending(true)
    setDraft('')
    const id = await sendPrompt(text, position)
    setSending(false)
    if (id) store.getState().focusNode(id)
    else setDraft(text) // nothing lost when the send failed
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        void send()
      }}
    >
      <div className="composer-target">
        <span data-testid="composer-target">
          {parentIndex !== undefined && !asRoot ? t('graph.continuesFrom', { index: parentIndex }) : t('graph.newRoot')}
        </span>
        {parentIndex !== undefined && (
          <button type="button" className="link" onClick={() => setAsRoot(!asRoot)}>
            {asRoot ? t('graph.continueInstead', { index: parentIndex }) : t('graph.newRootInstead')}
          </button>
        )}
      </div>
      <AttachedImages />
      <textarea
        id="composer-input"
        aria-label={t('graph.prompt')}
        placeholder={t('graph.composerPlaceholder')}
        value={draft}
        rows={3}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            void send()
          }
        }}
      />
      {over && (
        <p className="composer-over" role="alert">
          {over.promptOver > 0
            ? t('graph.promptOverBudget', { over: over.promptOver, budget: over.budget })
            : t('graph.turnsLeftOut', { count: over.dropped, budget: over.budget })}
        </p>
      )}
      <div className="composer-actions">
        <button type="button" aria-pressed={panel === 'context'} onClick={() => togglePanel('context')}>
          {t('graph.inspectContext')}
        </button>
        <button type="submit" className="primary" disabled={!draft.trim() || sending}>
          {t('graph.send')}
        </button>
      </div>
    </form>
  )
}
