import { useTranslation } from 'react-i18next'
import {
  ArchiveRestore,
  BookMarked,
  BookOpen,
  Brain,
  Cable,
  Command as CommandIcon,
  Ellipsis,
  FileInput,
  Keyboard,
  Search,
  ScrollText,
  Server,
  Settings as SettingsIcon,
  Waypoints,
} from 'lucide-react'
import { useShell } from '../store/shell'
import { useApp } from '../store'
import { Button, IconButton } from '../ui/Button'
import { Menu } from '../ui/Menu'
import { keyLabel } from '../ui/keys'
import { SettingsPanel } from '../features/settings/SettingsPanel'
import { PersonaPicker } from './PersonaPicker'
import './header.css'

/**
 * The top bar, one row at 1280 px: who speaks and in which conversation on the left; the
 * panels (stories, search, memory) as icon-and-label buttons on the right; the rarer
 * dialogs and the command palette in the "More" menu; the settings as an icon button.
 */
export function Header() {
  const { t } = useTranslation()
  const settingsOpen = useShell((s) => s.settingsOpen)
  const setSettingsOpen = useShell((s) => s.setSettingsOpen)
  const openPalette = useShell((s) => s.openPalette)
  const setShortcutsOpen = useShell((s) => s.setShortcutsOpen)
  const panel = useApp((s) => s.panel)
  const togglePanel = useApp((s) => s.togglePanel)
  const openModal = useApp((s) => s.openModal)
  const story = useApp((s) => s.story)
  return (
    <header className="app-header">
      <div className="header-brand">
        <span className="header-mark" aria-hidden="true">
          <Waypoints size={18} />
        </span>
        <h1 className="app-title">{t('app.name')}</h1>
      </div>
      <PersonaPicker />
      <span className="spacer" />
      <div className="header-actions">
        <Button variant="ghost" icon={BookOpen} onClick={() => openModal({ name: 'stories' })}>
          {t('story.headerButton')}
        </Button>
        {story && (
          <Button
            variant="ghost"
            icon={ScrollText}
            className="header-story"
            title={t('story.panelButton', { name: story.name })}
            aria-pressed={panel === 'story'}
            onClick={() => togglePanel('story')}
          >
            {t('story.panelButton', { name: story.name })}
          </Button>
        )}
        <Button
          variant="ghost"
          icon={Search}
          aria-pressed={panel === 'search'}
          onClick={() => togglePanel('search')}
          data-testid="header-search"
        >
          {t('search.title')}
        </Button>
        <Button
          variant="ghost"
          icon={Brain}
          aria-pressed={panel === 'memory'}
          onClick={() => togglePanel('memory')}
          data-testid="header-memory"
        >
          {t('memory.title')}
        </Button>
        <span className="header-divider" aria-hidden="true" />
        <Menu
          label={t('shell.header.more')}
          icon={Ellipsis}
          iconOnly
          testId="header-more"
          items={[
            {
              id: 'lorebooks',
              label: t('shell.cmd.lorebooks'),
              icon: BookMarked,
              onSelect: () => openModal({ name: 'lorebooks' }),
            },
            {
              id: 'transfer',
              label: t('transfer.open'),
              icon: FileInput,
              onSelect: () => openModal({ name: 'transfer' }),
            },
            {
              id: 'providers',
              label: t('providers.open'),
              icon: Server,
              onSelect: () => openModal({ name: 'providers' }),
            },
            { id: 'programs', label: t('programs.open'), icon: Cable, onSelect: () => openModal({ name: 'programs' }) },
            {
              id: 'backup',
              label: t('backup.open'),
              icon: ArchiveRestore,
              onSelect: () => openModal({ name: 'backup' }),
            },
            'separator',
            {
              id: 'shortcuts',
              label: t('shell.cmd.shortcuts'),
              icon: Keyboard,
              hint: keyLabel('Mod+/'),
              onSelect: () => setShortcutsOpen(true),
            },
            {
              id: 'palette',
              label: t('shell.cmd.palette'),
              icon: CommandIcon,
              hint: keyLabel('Mod+K'),
              onSelect: () => openPalette(),
            },
          ]}
        />
        <IconButton
          label={t('header.settings')}
          icon={SettingsIcon}
          aria-expanded={settingsOpen}
          onClick={() => setSettingsOpen(!settingsOpen)}
          data-testid="header-settings"
        />
      </div>
      {settingsOpen && <SettingsPanel onClose={() => setSettingsOpen(false)} />}
    </header>
  )
}
