import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BACKUP_JOB, BackupInterval, type BackupSettingsPatch, type BackupStatus } from '@shared/contract'
import { useApp } from '../../store'
import { Dialog } from '../../ui/Dialog'
import { RestoreSection } from './RestoreSection'
import { formatBytes } from '../../ui/formatBytes'
import { DialogCloseRow } from '../../ui/DialogCloseRow'

/**
 * Settings → Backup: where backups go (a typed path: browser mode has no native picker; the
 * main process checks it), the schedule and how many to keep, "Back up now" with progress,
 * the last backup's outcome, and restoring one into a new data folder.
 */
export function BackupDialog({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const invoke = useApp((s) => s.invoke)
  const job = useApp((s) => s.jobs[BACKUP_JOB.job_id])
  const [status, setStatus] = useState<BackupStatus | null>(null)
  const [folder, setFolder] = useState('')
  const [busy, setBusy] = useState(false)

  const reload = useCallback(
    () =>
      invoke('backup_status', {}).then((next) => {
        if (!next) return
        setStatus(next)
        setFolder(next.settings.folder ?? '')
      }),
    [invoke],
  )
  // Again whenever the status bar's backup entry changes: a scheduled backup may end meanwhile.
  useEffect(() => {
    void reload()
  }, [reload, job?.state])

  const save = async (patch: BackupSettingsPatch) => {
    if (await invoke('backup_update_settings', patch)) await reload()
  }
  const runNow = async () => {
    setBusy(true)
    await invoke('backup_run', {})
    setBusy(false)
    await reload()
  }

  if (!status) return null
  const { settings, last } = status
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language)
  const intervalLabel = {
    off: t('backup.intervalOff'),
    daily: t('backup.intervalDaily'),
    weekly: t('backup.intervalWeekly'),
  }
  const running = busy || job?.state === 'running'
  return (
    <Dialog title={t('backup.title')} onClose={onClose}>
      <p>{t('backup.intro')}</p>
      <form
        className="backup-folder"
        onSubmit={(e) => {
          e.preventDefault()
          void save({ folder: folder.trim() })
        }}
      >
        <label>
          {t('backup.folder')}
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder={t('backup.folderPlaceholder')}
          />
        </label>
        <button type="submit" disabled={!folder.trim() || folder.trim() === settings.folder}>
          {t('backup.saveFolder')}
        </button>
      </form>
      {status.folder_error && <p role="alert">{t('backup.folderError', { error: status.folder_error })}</p>}
      <div className="backup-schedule">
        <label>
          {t('backup.interval')}
          <select
            value={settings.interval}
            onChange={(e) => void save({ interval: BackupInterval.parse(e.target.value) })}
          >
            {BackupInterval.options.map((i) => (
              <option key={i} value={i}>
                {intervalLabel[i]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('backup.keep')}
          <input
            type="number"
            min={1}
            max={100}
            value={settings.keep}
            onChange={(e) => {
              const keep = Number(e.target.value)
              if (Number.isInteger(keep) && keep >= 1 && keep <= 100) void save({ keep })
            }}
          />
        </label>
      </div>
      <p>{status.next_due_at ? t('backup.next', { when: when(status.next_due_at) }) : t('backup.nextOff')}</p>
      <div className="backup-run">
        <button type="button" className="primary" disabled={running || !settings.folder} onClick={() => void runNow()}>
          {t('backup.runNow')}
        </button>
        {running && (
          <span role="status">
            {t('backup.running', { done: job?.done ?? 0, total: job?.total ?? 0 })}
            <progress value={job?.done ?? 0} max={Math.max(job?.total ?? 0, 1)} />
          </span>
        )}
      </div>
      <p data-testid="backup-last" role={last && !last.ok ? 'alert' : undefined}>
        {t('backup.last')}:{' '}
        {!last
          ? t('backup.lastNone')
          : last.ok
            ? t('backup.lastOk', {
                when: when(last.finished_at),
                size: formatBytes(last.bytes),
                files: last.files + last.databases,
              })
            : t('backup.lastFailed', { when: when(last.finished_at), error: last.error })}
        {/* On a line of its own: a long path would otherwise break the sentence mid-word. */}
        {last?.ok && <span className="backup-path">{last.path}</span>}
      </p>
      <RestoreSection backups={status.backups} />
      <DialogCloseRow onClose={onClose} />
    </Dialog>
  )
}
