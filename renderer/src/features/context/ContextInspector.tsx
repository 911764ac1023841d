import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'

const DEBOUNCE_MS = 300

/** Shows exactly what would be sent for the composer's text: each part and its tokens. */
export function ContextInspector() {
  const { t } = useTranslation()
  const draft = useApp((s) => s.draft)
  const selectedId = useApp((s) => s.selectedId)
  const flow = useApp((s) => s.flow)
  const preview = useApp((s) => s.previewContext)
  const context = useApp((s) => s.context)
  const indexOf = useApp((s) => s.members)

  useEffect(() => {
    if (!flow) return
    const timer = setTimeout(() => void preview(draft), DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [draft, selectedId, flow, preview])

  if (!flow) return <section className="side-panel">{t('context.noFlow')}</section>
  return (
    <section className="side-panel context-inspector" aria-label={t('context.title')}>
      <h2>{t('context.title')}</h2>
      {context && (
        <>
          <p className="context-total" data-testid="context-total">
            {t('context.total', { tokens: context.total_tokens, budget: context.budget })}
          </p>
          {context.dropped_node_ids.length > 0 && (
            <p className="hint">{t('context.dropped', { count: context.dropped_node_ids.length })}</p>
          )}
          <ol className="context-parts">
            {context.parts.map((part, i) => (
              <li key={i} className={`context-part part-${part.kind}`} data-kind={part.kind}>
                <div className="context-part-head">
                  <span>{t(`context.kind.${part.kind}`)}</span>
                  {part.node_id && <span>#{indexOf[part.node_id]?.index}</span>}
                  <span className="tokens">{t('context.tokens', { count: part.tokens })}</span>
                </div>
                <pre>{part.text}</pre>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}
