import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { BackupEntry, RestoreReport } from '@shared/contract'
import { useApp } from '../../store'
import { formatBytes } from '../../ui/formatBytes'

/**
 * Restoring never touches the data in use: the user picks a backup (from the folder's list or
 * by path) and names a new folder; the report says what came back, what failed verification,
 * and how to open the restored data folder.
 */
export function RestoreSection({ backups }: { backups: BackupEntry[] }) {
  const { t, i18n } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  // Until the user types one, the newest backup in the folder (the list arrives after a backup).
  const [typed, setBackup] = useState<string | null>(null)
  const backup = typed ?? backups[0]?.path ?? ''
  const [to, setTo] = useState('')
  const [busy, setBusy] = useState(false)
  const [report, setReport] = useState<RestoreReport | null>(null)

  const restore = async () => {
    setBusy(true)
    setReport(null)
    const done = await invoke('backup_restore', { backup: backup.trim(), to: to.trim() })
    setBusy(false)
    if (done) setReport(done)
  }

  return (
    <section className="backup-restore" aria-label={t('backup.restoreTitle')}>
      <h3>{t('backup.restoreTitle')}</h3>
      <p>{t('backup.restoreIntro')}</p>
      <label>
        {t('backup.restoreFrom')}
        <input
          value={backup}
          onChange={(e) => setBackup(e.target.value)}
          list="backup-list"
          placeholder={t('backup.restoreFromPlaceholder')}
        />
        <datalist id="backup-list">
          {backups.map((b) => (
            <option key={b.path} value={b.path}>
              {`${new Date(b.created_at).toLocaleString(i18n.language)} · ${formatBytes(b.bytes)}`}
            </option>
          ))}
        </datalist>
      </label>
      {backups.length === 0 && <p>{t('backup.none')}</p>}
      <label>
        {t('backup.restoreTo')}
        <input value={to} onChange={(e) => setTo(e.target.value)} placeholder={t('backup.folderPlaceholder')} />
      </label>
      <div className="dialog-actions">
        <button type="button" disabled={busy || !backup.trim() || !to.trim()} onClick={() => void restore()}>
          {t('backup.restore')}
        </button>
      </div>
      {report && (
        <div role="status" data-testid="restore-report">
          <p>
            {report.ok
              ? t('backup.restored', { count: report.restored.length, home: report.home })
              : t('backup.restoredWithFailures', { count: report.restored.length, home: report.home })}
          </p>
          {report.failed.length > 0 && (
            <ul>
              {report.failed.map((f) => (
                <li key={f.path}>{`${f.path}: ${f.reason}`}</li>
              ))}
            </ul>
          )}
          <p>{t('backup.openHow', { home: report.home })}</p>
        </div>
      )}
    </section>
  )
}
