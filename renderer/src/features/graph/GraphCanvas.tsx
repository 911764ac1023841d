import { useTranslation } from 'react-i18next'

export function GraphCanvas() {
  const { t } = useTranslation()
  return (
    <main className="graph-canvas" aria-label={t('canvas.label')}>
      <div className="empty-state">
        <h2>{t('canvas.emptyTitle')}</h2>
        <p>{t('canvas.emptyBody')}</p>
      </div>
    </main>
  )
}
