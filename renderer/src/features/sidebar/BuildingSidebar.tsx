import { useTranslation } from 'react-i18next'

export function BuildingSidebar() {
  const { t } = useTranslation()
  return (
    <aside className="building-sidebar" aria-label={t('sidebar.title')}>
      <h2>{t('sidebar.title')}</h2>
      <p className="empty">{t('sidebar.empty')}</p>
    </aside>
  )
}
