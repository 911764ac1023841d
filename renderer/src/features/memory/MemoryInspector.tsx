import { useTranslation } from 'react-i18next'

/** The persona's memory: units, versions, evidence, and why something was remembered. */
export function MemoryInspector() {
  const { t } = useTranslation()
  return (
    <section className="side-panel" aria-label={t('memory.title')}>
      <h2>{t('memory.title')}</h2>
    </section>
  )
}
