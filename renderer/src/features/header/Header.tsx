import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SettingsPanel } from '../settings/SettingsPanel'

export function Header() {
  const { t } = useTranslation()
  const [settingsOpen, setSettingsOpen] = useState(false)
  return (
    <header className="app-header">
      <h1 className="app-title">{t('app.name')}</h1>
      {/* Personas and flows arrive with their issues; the pickers hold their place. */}
      <label className="picker">
        <span>{t('header.persona')}</span>
        <select disabled aria-label={t('header.persona')}>
          <option>{t('header.noPersonas')}</option>
        </select>
      </label>
      <label className="picker">
        <span>{t('header.flow')}</span>
        <select disabled aria-label={t('header.flow')}>
          <option>{t('header.noFlows')}</option>
        </select>
      </label>
      <span className="spacer" />
      <button type="button" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((o) => !o)}>
        {t('header.settings')}
      </button>
      {settingsOpen && <SettingsPanel onClose={() => setSettingsOpen(false)} />}
    </header>
  )
}
