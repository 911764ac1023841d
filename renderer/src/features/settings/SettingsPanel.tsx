import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ArchiveRestore, Cable, FileInput, KeyRound, Server, Wrench } from 'lucide-react'
import { Language, Theme } from '@shared/contract'
import { useApp } from '../../store'
import { Button } from '../../ui/Button'
import { trapTab } from '../../ui/Dialog'
import { Field } from '../../ui/Field'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/** The user's name, which {{user}} reads; saved when the field is left or Enter is pressed. */
function UserNameField({ name, onSave }: { name: string; onSave: (name: string) => void }) {
  const { t } = useTranslation()
  const [value, setValue] = useState(name)
  const save = () => value.trim() !== name && onSave(value.trim())
  return (
    <Field label={t('lore.userName')} hint={t('lore.userNameHint', { macro: '{{user}}' })}>
      <input
        value={value}
        maxLength={100}
        onChange={(e) => setValue(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => e.key === 'Enter' && save()}
      />
    </Field>
  )
}

export function SettingsPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const settings = useApp((s) => s.settings)
  const error = useApp((s) => s.settingsError)
  const update = useApp((s) => s.updateSettings)
  const openModal = useApp((s) => s.openModal)
  const browserMode = useApp((s) => s.info?.mode === 'browser')
  const renewBrowserToken = useApp((s) => s.renewBrowserToken)
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    panel.current?.querySelector('select')?.focus() // once, on open: keyboard users land inside
    return () => {
      if (before?.isConnected && (document.activeElement === document.body || !document.activeElement)) before.focus()
    }
  }, [])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    const away = (e: MouseEvent) => {
      const target = e.target as HTMLElement
      // A click outside closes it; the header's own Settings button toggles it itself.
      if (!panel.current?.contains(target) && !target.closest('[data-testid=header-settings]')) onClose()
    }
    window.addEventListener('keydown', onKey)
    document.addEventListener('mousedown', away)
    return () => {
      window.removeEventListener('keydown', onKey)
      document.removeEventListener('mousedown', away)
    }
  }, [onClose])

  if (!settings) return null
  const languageLabel = { auto: t('settings.languageAuto'), ja: '日本語', en: 'English' }
  const themeLabel = {
    system: t('settings.themeSystem'),
    light: t('settings.themeLight'),
    dark: t('settings.themeDark'),
  }
  const open = (name: 'providers' | 'programs' | 'tools' | 'transfer' | 'backup') => () => {
    onClose()
    openModal({ name })
  }
  return (
    <div
      className="settings-panel"
      role="dialog"
      aria-label={t('settings.title')}
      ref={panel}
      onKeyDown={(e) => panel.current && trapTab(e, panel.current)}
    >
      <h2 className="settings-title">{t('settings.title')}</h2>
      <Field label={t('settings.language')}>
        <select value={settings.language} onChange={(e) => void update({ language: Language.parse(e.target.value) })}>
          {Language.options.map((l) => (
            <option key={l} value={l}>
              {languageLabel[l]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t('settings.theme')}>
        <select value={settings.theme} onChange={(e) => void update({ theme: Theme.parse(e.target.value) })}>
          {Theme.options.map((th) => (
            <option key={th} value={th}>
              {themeLabel[th]}
            </option>
          ))}
        </select>
      </Field>
      <UserNameField
        key={settings.user.name}
        name={settings.user.name}
        onSave={(name) => void update({ user: { ...settings.user, name } })}
      />
      <div className="settings-links">
        <Button variant="ghost" icon={Server} onClick={open('providers')}>
          {t('providers.open')}
        </Button>
        <Button variant="ghost" icon={Cable} onClick={open('programs')}>
          {t('programs.open')}
        </Button>
        <Button variant="ghost" icon={Wrench} onClick={open('tools')}>
          {t('mcp.open')}
        </Button>
        <Button variant="ghost" icon={FileInput} onClick={open('transfer')}>
          {t('transfer.open')}
        </Button>
        <Button variant="ghost" icon={ArchiveRestore} onClick={open('backup')}>
          {t('backup.open')}
        </Button>
        {browserMode && (
          <Button
            variant="ghost"
            icon={KeyRound}
            title={t('settings.newTokenHint')}
            onClick={() => void renewBrowserToken()}
          >
            {t('settings.newToken')}
          </Button>
        )}
      </div>
      {error && <p role="alert">{t('settings.saveFailed', { message: error })}</p>}
      <DialogCloseRow onClose={onClose} />
    </div>
  )
}
