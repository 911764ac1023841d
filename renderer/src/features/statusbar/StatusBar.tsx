import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { BACKUP_JOB, type WorkerStatus } from '@shared/contract'
import { useApp } from '../../store'
import './connection.css'

/** The job ids main/memory/store/memoryProgress.ts gives a persona's failed memory jobs, and its paused memory. */
const MEMORY_FAILED = 'memory-failed:'
const MEMORY_PAUSED = 'memory-paused:'
/**
 * Jobs whose label the window translates; others keep the label the main process gave
 * (English), so a job added there still shows, only untranslated.
 */
const TRANSLATED_LABELS: Record<string, string> = { [BACKUP_JOB.job_id]: 'backup.job' }

export function StatusBar() {
  const { t } = useTranslation()
  const connection = useApp((s) => s.connection)
  const info = useApp((s) => s.info)
  const jobs = useApp(useShallow((s) => Object.values(s.jobs)))
  const workers = useApp(useShallow((s) => Object.values(s.workers)))
  const showFailedMemoryJobs = useApp((s) => s.showFailedMemoryJobs)
  const running = jobs.filter((j) => j.state !== 'failed')
  const failed = jobs.filter((j) => j.state === 'failed')
  const label = (j: { job_id: string; label: string }) => {
    const key = TRANSLATED_LABELS[j.job_id]
    return key ? t(key) : j.label
  }
  return (
    <footer className="status-bar">
      <span className={`connection connection-${connection}`} role="status" data-testid="connection">
        {t(`status.${connection}`)}
      </span>
      <span className="jobs" data-testid="jobs">
        {workers.map((w) => (
          <WorkerNotice key={w.worker} status={w} />
        ))}
        {running.length === 0 && failed.length === 0 && workers.length === 0 && t('status.noJobs')}
        {running.length > 0 && t('status.jobsRunning', { count: running.length })}
        {running.slice(0, 2).map((j) => (
          <span key={j.job_id} className="job">
            {t('status.jobProgress', { label: label(j), done: j.done, total: j.total })}
            <progress value={j.done} max={Math.max(j.total, 1)} />
          </span>
        ))}
        {failed.map((j) => {
          if (j.job_id.startsWith(MEMORY_PAUSED))
            return (
              <MemoryPaused key={j.job_id} personaId={j.job_id.slice(MEMORY_PAUSED.length)} message={j.error ?? ''} />
            )
          // A persona's memory jobs that failed for good: the memory panel can retry them.
          const personaId = j.job_id.startsWith(MEMORY_FAILED) ? j.job_id.slice(MEMORY_FAILED.length) : null
          return (
            <span key={j.job_id} className="job job-failed">
              <span className="job-message" title={j.error ?? ''}>
                {t('status.jobFailed', { label: label(j), error: j.error ?? '' })}
              </span>
              {personaId && (
                <button type="button" className="link" onClick={() => void showFailedMemoryJobs(personaId)}>
                  {t('status.showFailedJobs')}
                </button>
              )}
            </span>
          )
        })}
      </span>
      <span className="spacer" />
      {info && (
        <span className="version" data-testid="version">
          {t('status.version', {
            version: info.version,
            mode: t(info.mode === 'electron' ? 'status.modeElectron' : 'status.modeBrowser'),
            schema: info.db.schema_version,
          })}
        </span>
      )}
    </footer>
  )
}

/**
 * A background worker died: restarted (shown until a quiet spell passes), or paused after dying
 * too often, with the reason and a retry.
 */
function WorkerNotice({ status }: { status: WorkerStatus }) {
  const { t } = useTranslation()
  const restartWorker = useApp((s) => s.restartWorker)
  const words = { name: t(`status.worker.${status.worker}`), reason: status.reason ?? '' }
  if (status.state === 'restarted')
    return (
      <span className="job" data-testid="worker-restarted">
        {t('status.worker.restarted', words)}
      </span>
    )
  return (
    <span className="job job-failed" data-testid="worker-paused">
      {t('status.worker.paused', words)}{' '}
      <button type="button" className="link" onClick={() => void restartWorker(status.worker)}>
        {t('status.worker.retry')}
      </button>
    </span>
  )
}

/**
 * The circuit breaker paused a persona's memory: its message (already in the UI's language)
 * and the three ways on. Each of them clears the breaker, and the main process then clears
 * this entry; "change model" does once the persona's lightweight model is another one.
 */
function MemoryPaused({ personaId, message }: { personaId: string; message: string }) {
  const { t } = useTranslation()
  const setPaused = useApp((s) => s.setMemoryPaused)
  const openModal = useApp((s) => s.openModal)
  return (
    <span className="job job-failed" data-testid="memory-paused-notice">
      <span className="job-message" title={message}>
        {message}
      </span>{' '}
      <span className="job-actions">
        <button type="button" className="link" onClick={() => openModal({ name: 'personas' })}>
          {t('status.memoryPaused.changeModel')}
        </button>{' '}
        <button type="button" className="link" onClick={() => void setPaused(false, { personaId, retryFailed: true })}>
          {t('status.memoryPaused.retry')}
        </button>{' '}
        <button type="button" className="link" onClick={() => void setPaused(true, { personaId })}>
          {t('status.memoryPaused.pause')}
        </button>
      </span>
    </span>
  )
}
