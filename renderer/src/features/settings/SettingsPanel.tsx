import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Language, Theme } from '@shared/contract'
import { useApp } from '../../store'

export function SettingsPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const settings = useApp((s) => s.settings)
  const error = useApp((s) => s.settingsError)
  const update = useApp((s) => s.updateSettings)
  const openModal = useApp((s) => s.openModal)
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    panel.current?.querySelector('select')?.focus() // once, on open: keyboard users land inside
  }, [])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  if (!settings) return null
  const languageLabel = { auto: t('settings.languageAuto'), ja: '日本語', en: 'English' }
  const themeLabel = {
    system: t('settings.themeSystem'),
    light: t('settings.themeLight'),
    dark: t('settings.themeDark'),
  }
  return (
    <div className="settings-panel" role="dialog" aria-label={t('settings.title')} ref={panel}>
      <label>
        {t('settings.language')}
        <select value={settings.language} onChange={(e) => void update({ language: Language.parse(e.target.value) })}>
          {Language.options.map((l) => (
            <option key={l} value={l}>
              {languageLabel[l]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('settings.theme')}
        <select value={settings.theme} onChange={(e) => void update({ theme: Theme.parse(e.target.value) })}>
          {Theme.options.map((th) => (
            <option key={th} value={th}>
              {themeLabel[th]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={() => {
          onClose()
          openModal({ name: 'providers' })
        }}
      >
        {t('providers.open')}
      </button>
      <button
        type="button"
        onClick={() => {
          onClose()
          openModal({ name: 'programs' })
        }}
      >
        {t('programs.open')}
      </button>
      <button
        type="button"
        onClick={() => {
          onClose()
          openModal({ name: 'transfer' })
        }}
      >
        {t('transfer.open')}
      </button>
      <button
        type="button"
        onClick={() => {
          onClose()
          openModal({ name: 'backup' })
        }}
      >
        {t('backup.open')}
      </button>
      {error && <p role="alert">{t('settings.saveFailed', { message: error })}</p>}
      <button type="button" onClick={onClose}>
        {t('settings.close')}
      </button>
    </div>
  )
}
