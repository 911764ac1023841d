import type { Db } from '../../db/open'
import { uiLanguage } from '../../kernel/language'
import type { EventBus } from '../../kernel/events'
import { JobStatus } from '../../kernel/jobs/jobQueue'
import { memoryControl, type MemoryControl } from './memoryBreaker'
import { nowSeconds } from './store'

interface Deps {
  bus: EventBus
  db: (personaId: string) => Db
  personaName: (personaId: string) => string
  language: () => 'auto' | 'ja' | 'en'
}

interface Finished {
  kind: string
  outcome: 'done' | 'retry' | 'dead' | 'paused'
  error?: string
}

/** The status-bar entry of a persona whose memory the circuit breaker paused (the renderer adds its actions). */
export const MEMORY_PAUSED = 'memory-paused:'

/**
 * The memory worker's work as status-bar entries, one pair per persona: the run in progress
 * ("3 of 8"), and the dead-lettered jobs waiting for the user's retry. The worker reports each
 * finished job; counts come from the jobs table, so a restart or a retry keeps them right.
 */
export class MemoryProgress {
  /** Jobs finished since the persona's queue was last empty. */
  private readonly finishedSince = new Map<string, number>()
  /** The last failure each persona's entry quoted, so rewording it keeps the detail. */
  private readonly lastErrors = new Map<string, string>()

  constructor(private readonly deps: Deps) {}

  finished(personaId: string, job: Finished): void {
    // A paused job has not run: it waits for the resume.
    if (job.outcome !== 'paused') this.finishedSince.set(personaId, (this.finishedSince.get(personaId) ?? 0) + 1)
    this.report(personaId, job.outcome === 'dead' ? `${job.kind}: ${job.error ?? ''}` : undefined)
  }

  /** A chat log being imported: lines read of all (`done === total` ends the entry). */
  importing(personaId: string, done: number, total: number): void {
    const ja = uiLanguage(this.deps.language()) === 'ja'
    const name = this.deps.personaName(personaId)
    this.deps.bus.emit('job_progress', {
      job_id: `memory-import:${personaId}`,
      label: ja ? `${name}の記憶に取り込み中` : `Importing into the memory of ${name}`,
      state: done >= total ? 'done' : 'running',
      done,
      total,
    })
  }

  /**
   * The user switched language: every persona's entries again, in the new one. The entries stay
   * on screen until acted on, so they must not stay in the language they were first said in.
   */
  reword(personaIds: Iterable<string>): void {
    for (const id of personaIds) this.report(id, this.lastErrors.get(id))
  }

  /** Emits both entries as the jobs table has them now. */
  report(personaId: string, lastError?: string): void {
    if (lastError) this.lastErrors.set(personaId, lastError)
    const db = this.deps.db(personaId)
    // Each count reads its slice of the (status, run_after) index: done jobs pile up over
    // months, and this runs on the main thread after every job.
    const { pending, failed } = db
      .prepare(
        `SELECT (SELECT count(*) FROM jobs WHERE status = ${JobStatus.running})
              + (SELECT count(*) FROM jobs WHERE status = ${JobStatus.queued} AND run_after <= ?) AS pending,
                (SELECT count(*) FROM jobs WHERE status = ${JobStatus.failed}) AS failed`,
      )
      .get(nowSeconds()) as { pending: number; failed: number }
    const done = this.finishedSince.get(personaId) ?? 0
    if (pending === 0) this.finishedSince.delete(personaId)
    const ja = uiLanguage(this.deps.language()) === 'ja'
    const name = this.deps.personaName(personaId)
    const label = ja ? `${name}の記憶` : `Memory of ${name}`
    this.deps.bus.emit('job_progress', {
      job_id: `memory:${personaId}`,
      label,
      state: pending === 0 ? 'done' : 'running',
      done,
      total: done + pending,
    })
    const control = memoryControl(db)
    const tripped = control.paused_by === 'breaker'
    this.reportBreaker(personaId, label, ja, control)
    // While the breaker holds, its one message says what to do; the failed jobs wait for its "retry".
    if (failed === 0 || tripped) {
      if (failed === 0) this.lastErrors.delete(personaId)
      // Nothing failed (any more): clear an earlier failure entry.
      this.deps.bus.emit('job_progress', {
        job_id: `memory-failed:${personaId}`,
        label,
        state: 'done',
        done: 0,
        total: 0,
      })
      return
    }
    const error = ja
      ? `${failed} 件のジョブ。記憶パネルの「ジョブ」から再試行できます。${lastError ? `（${lastError}）` : ''}`
      : `${failed} job${failed === 1 ? '' : 's'}; retry from Jobs in the memory panel.${lastError ? ` (${lastError})` : ''}`
    this.deps.bus.emit('job_progress', {
      job_id: `memory-failed:${personaId}`,
      label,
      state: 'failed',
      done: 0,
      total: failed,
      error: error.slice(0, 500),
    })
  }

  /**
   * One actionable entry while the circuit breaker holds the persona's memory: what failed and
   * the model. The renderer offers "change model", "retry" and "pause memory for this persona";
   * acting on any of them clears the breaker, and with it the entry.
   */
  private reportBreaker(personaId: string, label: string, ja: boolean, c: MemoryControl): void {
    const id = `${MEMORY_PAUSED}${personaId}`
    if (c.paused_by !== 'breaker') {
      this.deps.bus.emit('job_progress', { job_id: id, label, state: 'done', done: 0, total: 0 })
      return
    }
    const model = c.paused_model ?? '?'
    const reason = c.paused_reason ?? ''
    const error = ja
      ? `${label}を一時停止しました：軽量モデル ${model} が ${c.failures} 回続けて失敗しました（${reason}）。モデルを変更するか、再試行するか、このペルソナの記憶を止めてください。`
      : `${label} is paused: the lightweight model ${model} failed ${c.failures} times in a row (${reason}). Change the model, retry, or pause memory for this persona.`
    this.deps.bus.emit('job_progress', {
      job_id: id,
      label,
      state: 'failed',
      done: 0,
      total: c.failures,
      // The whole sentence, name included: the status bar shows it as it is.
      error: error.slice(0, 600),
    })
  }
}
