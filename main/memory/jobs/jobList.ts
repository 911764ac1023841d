import type { MemoryJob } from '@shared/contract'
import type { Db } from '../../db/open'
import { JobQueue, JobStatus } from '../../kernel/jobs/jobQueue'

const statusNames = ['queued', 'running', 'done', 'failed'] as const

interface JobRecord {
  id: number
  kind: string
  status: number
  tries: number
  last_error: string | null
  payload_json: string
  run_after: number
  created_at: number
  updated_at: number
}

/** A persona's memory jobs, newest first, with the unit or scope each works on. */
export function listJobs(db: Db, status: MemoryJob['status'] | undefined, limit = 200): MemoryJob[] {
  const rows = db
    .prepare(
      `SELECT id, kind, status, tries, last_error, payload_json, run_after, created_at, updated_at FROM jobs
       WHERE ? IS NULL OR status = ? ORDER BY updated_at DESC, id DESC LIMIT ?`,
    )
    .all(...statusFilter(status), limit) as JobRecord[]
  return rows.map((r) => {
    const payload = parsePayload(r.payload_json)
    return {
      id: r.id,
      kind: r.kind,
      status: statusNames[r.status] ?? 'failed',
      tries: r.tries,
      last_error: r.last_error,
      unit_id: typeof payload.unit_id === 'number' ? payload.unit_id : null,
      scope: typeof payload.scope_key === 'string' ? payload.scope_key : null,
      run_after: r.run_after,
      created_at: r.created_at,
      updated_at: r.updated_at,
    }
  })
}

/** Dead-lettered jobs back in the queue with fresh tries: the given ones, or every failed one. */
export function retryJobs(db: Db, ids: readonly number[] | undefined): number {
  const queue = new JobQueue(db)
  const targets =
    ids ?? (db.prepare(`SELECT id FROM jobs WHERE status = ${JobStatus.failed}`).pluck().all() as number[])
  let retried = 0
  db.transaction(() => {
    for (const id of targets) if (queue.retry(id)) retried++
  }).immediate()
  return retried
}

function statusFilter(status: MemoryJob['status'] | undefined): [number | null, number | null] {
  const value = status === undefined ? null : statusNames.indexOf(status)
  return [value, value]
}

function parsePayload(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
