import { useTranslation } from 'react-i18next'
import { useShallow } from 'zustand/react/shallow'
import { useApp } from '../../store'

/** The job id main/memory/memoryProgress.ts gives a persona's failed memory jobs. */
const MEMORY_FAILED = 'memory-failed:'

export function StatusBar() {
  const { t } = useTranslation()
  const connection = useApp((s) => s.connection)
  const info = useApp((s) => s.info)
  const jobs = useApp(useShallow((s) => Object.values(s.jobs)))
  const showFailedMemoryJobs = useApp((s) => s.showFailedMemoryJobs)
  const running = jobs.filter((j) => j.state !== 'failed')
  const failed = jobs.filter((j) => j.state === 'failed')
  return (
    <footer className="status-bar">
      <span className={`connection connection-${connection}`} role="status" data-testid="connection">
        {t(`status.${connection}`)}
      </span>
      <span className="jobs" data-testid="jobs">
        {running.length === 0 && failed.length === 0 && t('status.noJobs')}
        {running.length > 0 && t('status.jobsRunning', { count: running.length })}
        {running.slice(0, 2).map((j) => (
          <span key={j.job_id} className="job">
            {t('status.jobProgress', { label: j.label, done: j.done, total: j.total })}
            <progress value={j.done} max={Math.max(j.total, 1)} />
          </span>
        ))}
        {failed.map((j) => {
          // A persona's memory jobs that failed for good: the memory panel can retry them.
          const personaId = j.job_id.startsWith(MEMORY_FAILED) ? j.job_id.slice(MEMORY_FAILED.length) : null
          return (
            <span key={j.job_id} className="job job-failed">
              {t('status.jobFailed', { label: j.label, error: j.error ?? '' })}
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
