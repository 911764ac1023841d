import type { Db } from '../../db/open'
import { LlmError } from '../../llm/llmError'
import type { Usage } from '../../llm/types'

// What memory jobs may spend on the persona's lightweight model, kept in the persona's own
// database (migration 0004) so the worker and the main thread read the same state:
// - the circuit breaker: after BREAKER_FAILURES jobs in a row fail on the model, memory jobs
//   pause until the user retries, changes the model, or pauses memory deliberately;
// - the user's own pause switch;
// - an optional daily token budget.
// A paused job is not a failed one: it goes back to the queue untouched and waits.

/** Failed jobs in a row that trip the breaker. */
export const BREAKER_FAILURES = 3

/** Marks a job postponed by a pause (jobs.last_error), so a resume knows which to bring back. */
const POSTPONED = 'memory paused:'
/** A pause has no end of its own: the job waits until a resume brings it back. */
const PAUSED_WAIT_SECONDS = 10 * 365 * 86_400

export type PausedBy = 'user' | 'breaker' | 'budget'

export interface MemoryControl {
  paused_by: 'user' | 'breaker' | null
  paused_reason: string | null
  paused_model: string | null
  paused_at: number | null
  failures: number
  daily_token_budget: number | null
}

/** Thrown before a call the persona's memory may not make now; the runner postpones the job. */
export class MemoryPaused extends Error {
  override name = 'MemoryPaused'
  constructor(
    readonly by: PausedBy,
    /** Epoch seconds the job may run again; null: when memory is resumed. */
    readonly until: number | null,
    message: string,
  ) {
    super(message)
  }
}

export function memoryControl(db: Db): MemoryControl {
  return db.prepare('SELECT * FROM memory_control WHERE id = 1').get() as MemoryControl
}

/** The local calendar day of a time, `2025-06-01`: "today" as the user sees it. */
export function localDay(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

function nextLocalMidnight(epochSeconds: number): number {
  const d = new Date(epochSeconds * 1000)
  return Math.floor(new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() / 1000)
}

/** Calls and tokens memory jobs spent on the day of `now` (every model). */
export function usageOn(db: Db, now: number): { calls: number; tokens: number } {
  return db
    .prepare(
      `SELECT coalesce(sum(calls), 0) AS calls, coalesce(sum(prompt_tokens + completion_tokens), 0) AS tokens
       FROM llm_usage WHERE day = ?`,
    )
    .get(localDay(now)) as { calls: number; tokens: number }
}

/** Throws MemoryPaused when the persona's memory may not call its model now. */
export function checkMayCall(db: Db, now: number): void {
  const c = memoryControl(db)
  if (c.paused_by === 'user') throw new MemoryPaused('user', null, 'memory paused by the user')
  if (c.paused_by === 'breaker')
    throw new MemoryPaused('breaker', null, `memory paused after repeated failures of ${c.paused_model ?? 'the model'}`)
  if (c.daily_token_budget !== null && usageOn(db, now).tokens >= c.daily_token_budget)
    throw new MemoryPaused(
      'budget',
      nextLocalMidnight(now),
      `today's memory budget of ${c.daily_token_budget} tokens is spent`,
    )
}

/** One call made (answered or not): counted against the day, tokens as the provider reported them. */
export function recordCall(db: Db, model: string, usage: Usage | null, now: number): void {
  db.prepare(
    `INSERT INTO llm_usage (day, model, calls, prompt_tokens, completion_tokens) VALUES (?, ?, 1, ?, ?)
     ON CONFLICT (day, model) DO UPDATE SET calls = calls + 1,
       prompt_tokens = prompt_tokens + excluded.prompt_tokens,
       completion_tokens = completion_tokens + excluded.completion_tokens`,
  ).run(localDay(now), model, usage?.prompt_tokens ?? 0, usage?.completion_tokens ?? 0)
}

/** A job's call to the model worked: the count of failures in a row starts again. */
export function recordSuccess(db: Db): void {
  db.prepare('UPDATE memory_control SET failures = 0 WHERE id = 1 AND failures != 0').run()
}

/**
 * A job failed on the model. Failures that say nothing about the model are not counted: our
 * own stop, and a rate limit (it passes with the backoff). Returns whether the breaker tripped.
 */
export function recordFailure(db: Db, model: string, error: unknown, now: number): boolean {
  if (error instanceof MemoryPaused) return false
  if (error instanceof LlmError && (error.failure === 'aborted' || error.failure === 'rate_limited')) return false
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300)
  return db
    .transaction(() => {
      const c = memoryControl(db)
      const failures = c.failures + 1
      const trip = failures >= BREAKER_FAILURES && c.paused_by === null
      db.prepare(
        `UPDATE memory_control SET failures = ?,
           paused_by = CASE WHEN ? THEN 'breaker' ELSE paused_by END,
           paused_reason = CASE WHEN ? THEN ? ELSE paused_reason END,
           paused_model = CASE WHEN ? THEN ? ELSE paused_model END,
           paused_at = CASE WHEN ? THEN ? ELSE paused_at END
         WHERE id = 1`,
      ).run(failures, +trip, +trip, reason, +trip, model, +trip, now)
      return trip
    })
    .immediate()
}

/**
 * A job stopped by a pause goes back to the queue as it was (this try not counted). Asked again
 * in the write's own transaction: a resume on the main thread (the user's, or a new model's)
 * between the check that stopped the job and this write has released the postponed jobs already,
 * and this one, postponed after it, would wait for the next pause's end (the likeliest cause of a
 * memory-spend test under load seeing 3 of its 4 jobs run). So it is due at once unless memory is
 * still paused.
 */
export function postponeJob(db: Db, jobId: number, now: number): void {
  db.transaction(() => {
    const still = pausedNow(db, now)
    db.prepare(
      `UPDATE jobs SET status = 0, tries = max(tries - 1, 0), lease_until = NULL, run_after = ?, last_error = ?,
         updated_at = ? WHERE id = ?`,
    ).run(
      still ? (still.until ?? now + PAUSED_WAIT_SECONDS) : now,
      still ? `${POSTPONED} ${still.message}` : null,
      now,
      jobId,
    )
  }).immediate()
}

/** The pause that keeps memory from calling its model now, or undefined when it may. */
function pausedNow(db: Db, now: number): MemoryPaused | undefined {
  try {
    checkMayCall(db, now)
    return undefined
  } catch (e) {
    if (e instanceof MemoryPaused) return e
    throw e
  }
}

/**
 * The user's pause switch. Pausing replaces the breaker's pause (the user has seen it and
 * chosen); resuming clears either, brings postponed jobs back and starts counting failures anew.
 * Returns how many postponed jobs came back.
 */
export function setPaused(db: Db, paused: boolean, now: number): number {
  return db
    .transaction(() => {
      if (paused) {
        db.prepare(
          `UPDATE memory_control SET paused_by = 'user', paused_reason = NULL, paused_model = NULL, paused_at = ?
           WHERE id = 1`,
        ).run(now)
        return 0
      }
      db.prepare(
        `UPDATE memory_control SET paused_by = NULL, paused_reason = NULL, paused_model = NULL, paused_at = NULL,
           failures = 0 WHERE id = 1`,
      ).run()
      return releasePostponed(db, now)
    })
    .immediate()
}

/** Jobs postponed by a pause or a spent budget, due again now (budget raised, memory resumed). */
export function releasePostponed(db: Db, now: number): number {
  return db
    .prepare(
      `UPDATE jobs SET run_after = ?, last_error = NULL, updated_at = ?
       WHERE status = 0 AND substr(last_error, 1, ?) = ?`,
    )
    .run(now, now, POSTPONED.length, POSTPONED).changes
}

/** The daily token budget for memory jobs; null removes it. Postponed jobs get another look. */
export function setDailyBudget(db: Db, tokens: number | null, now: number): void {
  db.transaction(() => {
    db.prepare('UPDATE memory_control SET daily_token_budget = ? WHERE id = 1').run(tokens)
    if (memoryControl(db).paused_by === null) releasePostponed(db, now)
  }).immediate()
}
