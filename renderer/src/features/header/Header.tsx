import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useApp } from '../../store'
import { FlowPicker } from '../graph/FlowPicker'
import { SettingsPanel } from '../settings/SettingsPanel'
import { PersonaPicker } from './PersonaPicker'

export function Header() {
  const { t } = useTranslation()
  const [settingsOpen, setSettingsOpen] = useState(false)
  const panel = useApp((s) => s.panel)
  const togglePanel = useApp((s) => s.togglePanel)
  const openModal = useApp((s) => s.openModal)
  const story = useApp((s) => s.story)
  return (
    <header className="app-header">
      <h1 className="app-title">{t('app.name')}</h1>
      <PersonaPicker />
      <FlowPicker />
      <span className="spacer" />
      <button type="button" onClick={() => openModal({ name: 'stories' })}>
        {t('story.headerButton')}
      </button>
      {story && (
        <button type="button" aria-pressed={panel === 'story'} onClick={() => togglePanel('story')}>
          {t('story.panelButton', { name: story.name })}
        </button>
      )}
      <button type="button" aria-pressed={panel === 'search'} onClick={() => togglePanel('search')}>
        {t('search.title')}
      </button>
      <button type="button" aria-pressed={panel === 'memory'} onClick={() => togglePanel('memory')}>
        {t('memory.title')}
      </button>
      <button type="button" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((o) => !o)}>
        {t('header.settings')}
      </button>
      {settingsOpen && <SettingsPanel onClose={() => setSettingsOpen(false)} />}
    </header>
  )
}
