import { useTranslation } from 'react-i18next'
import { commands } from '../../store/commands'
import { useShell } from '../../store/shell'
import { Button } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { keyLabel } from '../../ui/keys'

/** Keys that belong to a place rather than to a command (the composer, the canvas, lists). */
const placeKeys = [
  { keys: 'Mod+Enter', label: 'shell.keys.send' },
  { keys: 'Escape', label: 'shell.keys.escape' },
  { keys: '↑ ↓ ← →', label: 'shell.keys.arrows' },
  { keys: 'Delete', label: 'shell.keys.delete' },
] as const

/** Ctrl+/ (or "Keyboard shortcuts" in the palette): every key the app answers, in one list. */
export function ShortcutsDialog() {
  const { t } = useTranslation()
  const open = useShell((s) => s.shortcutsOpen)
  const setOpen = useShell((s) => s.setShortcutsOpen)
  if (!open) return null
  const rows = [
    ...commands.filter((c) => c.keys).map((c) => ({ keys: c.keys!, label: t(c.label) })),
    ...placeKeys.map((k) => ({ keys: k.keys, label: t(k.label) })),
  ]
  return (
    <Dialog title={t('shell.shortcuts.title')} onClose={() => setOpen(false)} size="sm">
      <table className="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">{t('shell.shortcuts.action')}</th>
            <th scope="col">{t('shell.shortcuts.keys')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.keys}>
              <td>{r.label}</td>
              <td>
                <kbd className="ui-kbd">{keyLabel(r.keys)}</kbd>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <Button variant="primary" onClick={() => setOpen(false)}>
          {t('shell.close')}
        </Button>
      </div>
    </Dialog>
  )
}
