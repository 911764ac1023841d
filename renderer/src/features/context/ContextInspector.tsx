import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import type { ContextPart, ContextPreview } from '@shared/contract'
import { useApp } from '../../store'
import { NodeImages } from '../../ui/NodeImages'
import { OfferedTools } from './OfferedTools'

const DEBOUNCE_MS = 300

/**
 * What the model sees, part by part with tokens: for the composer's next message, or
 * exactly what was sent with the selected node's reply.
 */
export function ContextInspector() {
  const { t } = useTranslation()
  const draft = useApp((s) => s.draft)
  const selectedId = useApp((s) => s.selectedId)
  const selectedIndex = useApp((s) => (s.selectedId ? s.members[s.selectedId]?.index : undefined))
  const flow = useApp((s) => s.flow)
  const preview = useApp((s) => s.previewContext)
  const next = useApp((s) => s.context)
  const invoke = useApp((s) => s.invoke)
  const [mode, setMode] = useState<'next' | 'sent'>('next')
  const sentImages = useApp((s) => (s.selectedId ? s.nodes[s.selectedId]?.metadata.images : undefined))
  const [sent, setSent] = useState<{ id: string; context: ContextPreview; sent_at: string } | null>(null)
  // What was sent is kept once the reply is under way: a node selected while it waits is asked
  // again when its reply moves on (streaming, then done), not only when another is selected.
  const selectedStatus = useApp((s) => (s.selectedId ? s.nodes[s.selectedId]?.status : undefined))
  const selectedReply = useApp((s) => (s.selectedId ? s.replyStatus[s.selectedId]?.state : undefined))

  useEffect(() => {
    if (!flow) return
    const timer = setTimeout(() => void preview(draft), DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [draft, selectedId, flow, preview])

  useEffect(() => {
    if (!selectedId) return
    let current = true
    void invoke('get_sent_context', { node_id: selectedId }).then((found) => {
      if (current) setSent(found ? { id: selectedId, ...found } : null)
    })
    return () => {
      current = false
    }
  }, [selectedId, selectedStatus, selectedReply, invoke])

  if (!flow) return <section className="side-panel">{t('context.noFlow')}</section>
  const sentHere = sent && sent.id === selectedId ? sent : null
  const shown = mode === 'sent' && sentHere ? sentHere.context : next
  return (
    <section className="side-panel context-inspector" aria-label={t('context.title')}>
      <h2>{t('context.title')}</h2>
      <div className="segmented" role="tablist">
        <button type="button" role="tab" aria-selected={mode === 'next'} onClick={() => setMode('next')}>
          {t('context.next')}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={mode === 'sent'}
          disabled={!sentHere}
          onClick={() => setMode('sent')}
        >
          {selectedIndex !== undefined ? t('context.sentWith', { index: selectedIndex }) : t('context.sent')}
        </button>
      </div>
      {mode === 'sent' && sentHere && (
        <p className="hint">{t('context.sentAt', { at: new Date(sentHere.sent_at).toLocaleString() })}</p>
      )}
      {mode === 'sent' && sentHere && sentImages && <NodeImages images={sentImages} />}
      {shown && <ContextParts context={shown} />}
      {mode === 'next' && <OfferedTools flowId={flow.id} />}
    </section>
  )
}

/** Which entry fired and why: the key and the message it was found in, or always on, or still on. */
function loreWhy(t: TFunction, lore: NonNullable<ContextPart['lore']>): string {
  const names = { book: lore.book_name, entry: lore.comment || `#${lore.uid}` }
  const { kind, key, message } = lore.reason
  if (kind === 'constant' || kind === 'sticky') return t(`context.loreWhy.${kind}`, names)
  if (kind === 'recursion' || message === null) return t('context.loreWhy.recursion', { ...names, key })
  const where = message === 0 ? t('context.loreWhy.prompt') : t('context.loreWhy.message', { count: message })
  return t('context.loreWhy.key', { ...names, key, where })
}

function ContextParts({ context }: { context: ContextPreview }) {
  const { t } = useTranslation()
  const members = useApp((s) => s.members)
  return (
    <>
      <p className="context-total" data-testid="context-total">
        {context.tool_tokens
          ? t('context.totalWithTools', {
              tokens: context.total_tokens,
              tools: context.tool_tokens,
              budget: context.budget,
            })
          : t('context.total', { tokens: context.total_tokens, budget: context.budget })}
      </p>
      {context.calibration && (
        <p className="hint" data-testid="context-calibration">
          {t('context.calibrated', {
            model: context.calibration.model,
            ratio: context.calibration.ratio.toFixed(2),
            count: context.calibration.samples,
          })}
        </p>
      )}
      {context.dropped_node_ids.length > 0 && (
        <p className="hint">{t('context.dropped', { count: context.dropped_node_ids.length })}</p>
      )}
      {context.skipped_lore_keys?.map((s) => (
        <p key={`${s.book_id}:${s.uid}:${s.key}`} className="hint skipped-key" data-testid="context-skipped-key">
          {t('context.loreKeySkipped', { book: s.book_name, entry: s.comment || `#${s.uid}`, key: s.key })}
        </p>
      ))}
      <ol className="context-parts">
        {context.parts.map((part, i) => (
          <li key={i} className={`context-part part-${part.kind}`} data-kind={part.kind}>
            <div className="context-part-head">
              <span>{t(`context.kind.${part.kind}`)}</span>
              {part.node_id && <span>#{members[part.node_id]?.index}</span>}
              <span className="tokens">{t('context.tokens', { count: part.tokens })}</span>
            </div>
            {part.lore && <p className="hint context-why">{loreWhy(t, part.lore)}</p>}
            {part.depth !== undefined && <p className="hint">{t('context.loreWhy.atDepth', { count: part.depth })}</p>}
            <pre>{part.text}</pre>
          </li>
        ))}
      </ol>
    </>
  )
}
