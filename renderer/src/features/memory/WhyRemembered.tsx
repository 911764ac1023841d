import { useTranslation } from 'react-i18next'
import type { MemoryPack } from '@shared/contract'
import { useApp } from '../../store'
import { formatTime, whyParts } from './memoryText'
import { RefLink } from './UnitDetail'

/** "Why did the persona remember this?": every MemoryPack injected with the node's reply. */
export function WhyRemembered() {
  const { t, i18n } = useTranslation()
  const nodeId = useApp((s) => s.memoryWhyNodeId)
  const index = useApp((s) => (s.memoryWhyNodeId ? s.members[s.memoryWhyNodeId]?.index : undefined))
  const packs = useApp((s) => (s.memoryPacks && s.memoryPacks.nodeId === s.memoryWhyNodeId ? s.memoryPacks : null))
  if (!nodeId) return null
  return (
    <div className="memory-why" data-testid="memory-why">
      <h3>{index !== undefined ? t('memory.whyTitleIndex', { index }) : t('memory.whyTitle')}</h3>
      {!packs ? (
        <p className="hint">{t('memory.loading')}</p>
      ) : packs.packs.length === 0 ? (
        <p className="hint">{t('memory.noPacks')}</p>
      ) : (
        packs.packs.map((p, i) => (
          <article key={i} className="memory-pack" data-testid="memory-pack">
            <p className="hint">
              {t('memory.packHead', {
                at: formatTime(p.created_at, i18n.language),
                tokens: p.pack.tokens,
                budget: p.budget_tokens,
                intent: `${t(`memory.intents.${p.pack.intent}`, { defaultValue: p.pack.intent })}${p.pack.intent_by ? ` (${t(`memory.intentBy.${p.pack.intent_by}`)})` : ''}`,
              })}
            </p>
            {p.pack.vectors && (
              <p className="hint" data-testid="memory-pack-vectors">
                {t('memory.packVectors', {
                  list: p.pack.vectors.map((v) => (v.startsWith('local:') ? t('memory.localVectors') : v)).join(', '),
                })}
              </p>
            )}
            <p className="memory-pack-query">
              <span className="hint">{t('memory.packQuery')}</span> {p.query}
            </p>
            {p.pack.sections.length === 0 && <p className="hint">{t('memory.emptyPack')}</p>}
            {p.pack.sections.map((section, j) => (
              <PackSection key={j} section={section} />
            ))}
            {p.pack.text && (
              <details>
                <summary>{t('memory.injectedText')}</summary>
                <pre className="memory-text">{p.pack.text}</pre>
              </details>
            )}
          </article>
        ))
      )}
    </div>
  )
}

/** The Scheduler's reason in the UI's language (unknown pieces as written). */
function WhyText({ why }: { why: string }) {
  const { t } = useTranslation()
  const { parts, value } = whyParts(why)
  const text = parts.map((p) => (p.key ? t(p.key, { ...p.values, defaultValue: p.raw }) : p.raw))
  return (
    <span title={why}>
      {text.join(t('memory.whyParts.separator'))}
      {value !== null && <span className="hint"> {t('memory.whyParts.value', { value })}</span>}
    </span>
  )
}

function PackSection({ section }: { section: MemoryPack['sections'][number] }) {
  const { t } = useTranslation()
  const open = useApp((s) => s.openMemoryUnit)
  return (
    <section className="memory-pack-section" data-section={section.kind}>
      <h4>{t(`memory.section.${section.kind}`, { defaultValue: section.kind })}</h4>
      <ul>
        {section.items.map((item) => (
          <li key={item.unit_id} className="memory-pack-item" data-testid="memory-pack-item">
            <div className="context-part-head">
              <span>{t(`memory.kind.${item.kind}`)}</span>
              <button type="button" className="link" onClick={() => void open(item.unit_id)}>
                {t('memory.openUnit')}
              </button>
              <span className="tokens">{t('context.tokens', { count: item.tokens })}</span>
            </div>
            <pre>{item.text}</pre>
            <p className="memory-why-reason">
              <span className="hint">{t('memory.whyLabel')}</span> <WhyText why={item.why} />
            </p>
            {item.refs.length > 0 && (
              <div className="memory-refs">
                {item.refs.map((r, k) => (
                  <RefLink key={k} memoryRef={r} />
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
