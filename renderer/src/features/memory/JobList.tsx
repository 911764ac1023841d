import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MemoryJobStatus, type MemoryJob } from '@shared/contract'
import { useApp } from '../../store'
import { MEMORY_JOB_LIMIT } from '../../store/memorySlice'
import type { MemoryJobFilter } from '../../store/memoryState'
import { relativeTime, waitingUntil } from './jobText'
import { formatTime } from './memoryText'

const filters: MemoryJobFilter[] = ['all', ...MemoryJobStatus.options]

/** The LLM jobs behind the persona's memory, newest first; dead-lettered ones can be retried here. */
export function JobList() {
  const { t } = useTranslation()
  const jobs = useApp((s) => s.memoryJobs)
  const filter = useApp((s) => s.memoryJobFilter)
  const failedCount = useApp((s) => s.memoryStatus?.jobs.failed ?? 0)
  const load = useApp((s) => s.loadMemoryJobs)
  const retry = useApp((s) => s.retryMemoryJobs)
  const now = useNowSeconds(30_000)
  const anyFailed = failedCount > 0 || (jobs?.some((j) => j.status === 'failed') ?? false)

  return (
    <div className="memory-jobs-view">
      <div className="memory-jobs-bar">
        <label className="field">
          <span>{t('memory.jobList.filterLabel')}</span>
          <select
            aria-label={t('memory.jobList.filterLabel')}
            value={filter ?? 'all'}
            onChange={(e) => void load(e.target.value as MemoryJobFilter)}
          >
            {filters.map((f) => (
              <option key={f} value={f}>
                {t(`memory.jobList.status.${f}`)}
              </option>
            ))}
          </select>
        </label>
        {anyFailed && (
          <button type="button" onClick={() => void retry()}>
            {t('memory.jobList.retryAll')}
          </button>
        )}
      </div>
      {jobs === null ? (
        <p className="hint">{t('memory.loading')}</p>
      ) : jobs.length === 0 ? (
        <p className="hint">{t(filter === 'failed' ? 'memory.jobList.emptyFailed' : 'memory.jobList.empty')}</p>
      ) : (
        <>
          <ul className="memory-jobs" aria-label={t('memory.jobList.list')}>
            {jobs.map((job) => (
              <li key={job.id}>
                <JobRow job={job} now={now} />
              </li>
            ))}
          </ul>
          {jobs.length >= MEMORY_JOB_LIMIT && (
            <p className="hint">{t('memory.jobList.limited', { count: MEMORY_JOB_LIMIT })}</p>
          )}
        </>
      )}
    </div>
  )
}

/** The clock, re-read now and then: "3 minutes ago" and "waits until" move on while the list stays open. */
function useNowSeconds(everyMs: number): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000))
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

function JobRow({ job, now }: { job: MemoryJob; now: number }) {
  const { t, i18n } = useTranslation()
  const openUnit = useApp((s) => s.openMemoryUnit)
  const retry = useApp((s) => s.retryMemoryJobs)
  const waits = waitingUntil(job, now)
  // A queued job with an error is backing off before its next try: say why, as for a failed one.
  const showError = job.last_error && (job.status === 'failed' || job.status === 'queued')
  return (
    <div
      className={`memory-job status-${job.status}`}
      data-testid="memory-job"
      data-job-id={job.id}
      data-status={job.status}
    >
      <div className="memory-job-head">
        {/* Kinds added later than this UI are shown as the host names them. */}
        <strong>{t(`memory.jobList.kind.${job.kind}`, { defaultValue: job.kind })}</strong>
        <span className={`memory-badge job-status-${job.status}`}>{t(`memory.jobList.status.${job.status}`)}</span>
        {job.unit_id !== null ? (
          <button type="button" className="link" onClick={() => void openUnit(job.unit_id)}>
            {t('memory.jobList.unit', { id: job.unit_id })}
          </button>
        ) : (
          job.scope && <span className="hint">{t('memory.jobList.scope', { scope: job.scope })}</span>
        )}
      </div>
      <p className="hint memory-job-meta">
        {t('memory.jobList.tries', { count: job.tries })}
        {' · '}
        {waits !== null ? (
          t('memory.jobList.waitsUntil', { time: formatTime(waits, i18n.language) })
        ) : (
          <time
            dateTime={new Date(job.updated_at * 1000).toISOString()}
            title={formatTime(job.updated_at, i18n.language)}
          >
            {/* The clock may lag a job updated since its last tick: never "in 10 seconds". */}
            {t('memory.jobList.updated', {
              time: relativeTime(job.updated_at, Math.max(now, job.updated_at), i18n.language),
            })}
          </time>
        )}
      </p>
      {showError && (
        <p className="memory-job-error" data-testid="memory-job-error">
          <span>{t('memory.jobList.error')}</span> {job.last_error}
        </p>
      )}
      {job.status === 'failed' && (
        <button type="button" className="memory-job-retry" onClick={() => void retry([job.id])}>
          {t('memory.jobList.retry')}
        </button>
      )}
    </div>
  )
}
