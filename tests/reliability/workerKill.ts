import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Flow, JobProgress, WorkerStatus } from '@shared/contract'
import { startCore, type Core } from '../../main/core'
import { startFakeLlm } from '../support/fakeLlm'
import { killableWorker } from '../support/killableWorker'
import { llmEnv } from '../support/serveProcess'
import type { ReliabilitySize } from './size'

export interface WorkerKillResult {
  suite: 'worker_kill'
  /** Summary jobs queued in one batch. */
  jobs_total: number
  jobs_done: number
  /** Dead-lettered: a job the kills hit on every one of its tries. */
  jobs_failed: number
  /** Still queued or running when the batch should long have finished. Must be 0. */
  jobs_stuck: number
  /** Worker threads killed while holding a job. */
  kills: number
  restarts: number
  /** Pauses after deaths in a row, each retried as the status bar's button does. */
  pauses: number
  seconds: number
  details: string[]
}

/** Jobs, kills and claims per worker life at each size: full kills 40 threads among 1,000 jobs. */
export function workerKillSize(size: ReliabilitySize): { jobs: number; kills: number; claimsPerLife: number } {
  return size === 'full' ? { jobs: 1000, kills: 40, claimsPerLife: 20 } : { jobs: 40, kills: 6, claimsPerLife: 3 }
}

const SUMMARY_REPLY = 'Summary: a node under fire.\nTags: worker, restart, load'
/** Far beyond what the batch needs; a job that waited out its 5-minute lease would still miss it. */
const FINISH_TIMEOUT_MS = 180_000

/**
 * The job worker killed again and again under load (issue 37, finding 5: an EMFILE killed it
 * and summaries stayed queued until the app restarted). One batch of summaries; every worker
 * thread dies as it claims its `claimsPerLife`-th job (an exit in the middle of the job, as an
 * uncaught error would), until `kills` threads have died. The supervisor must bring each back,
 * put the held job back at once, and when it pauses after deaths in a row, the retry (as the
 * status bar's button) must start it again: every job ends done or failed, none stuck.
 */
export async function killWorkerUnderLoad(options: {
  jobs: number
  kills: number
  claimsPerLife: number
  onProgress?: (text: string) => void
}): Promise<WorkerKillResult> {
  const started = Date.now()
  const result: WorkerKillResult = {
    suite: 'worker_kill',
    jobs_total: 0,
    jobs_done: 0,
    jobs_failed: 0,
    jobs_stuck: 0,
    kills: 0,
    restarts: 0,
    pauses: 0,
    seconds: 0,
    details: [],
  }
  const llm = await startFakeLlm({ keepRequests: false })
  llm.script({ provider: 'openai', reply: SUMMARY_REPLY })
  const home = mkdtempSync(join(tmpdir(), 'loomverse-worker-kill-'))
  const worker = killableWorker('job', {
    deaths: options.kills,
    dieOn: 'job_claimed',
    nth: options.claimsPerLife,
    how: 'exit',
  })
  const core = startCore({
    home,
    mode: 'browser',
    log: () => {},
    jobWorker: worker.entry,
    memoryWorker: null,
    env: { ...llmEnv(llm), LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini' },
    // The shipped policy (five deaths in two minutes pause), with shorter waits so the run is quick.
    workerRestarts: { firstDelayMs: 20, maxDelayMs: 200 },
  })
  try {
    const { batch, queued } = await queueSummaries(core, options.jobs)
    result.jobs_total = queued
    const finished = new Promise<void>((resolve) => {
      core.bus.listen((event, data) => {
        if (event === 'worker_status') {
          const status = data as WorkerStatus
          if (status.state === 'restarted') result.restarts++
          if (status.state === 'paused') {
            result.pauses++
            options.onProgress?.(`paused after deaths in a row (${status.reason}); retrying`)
            void call(core, 'jobs_restart_worker', { worker: 'jobs' })
          }
        }
        const p = data as JobProgress
        if (event === 'job_progress' && p.job_id === batch && (p.state === 'done' || p.state === 'failed')) resolve()
      })
    })
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      finished,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          result.details.push(`the batch did not finish within ${FINISH_TIMEOUT_MS / 1000} s`)
          resolve()
        }, FINISH_TIMEOUT_MS)
      }),
    ])
    clearTimeout(timer)
    const count = (statuses: string) =>
      core.db
        .prepare(`SELECT count(*) FROM jobs WHERE batch = ? AND status IN ${statuses}`)
        .pluck()
        .get(batch) as number
    result.jobs_done = count('(2)')
    result.jobs_failed = count('(3)')
    result.jobs_stuck = count('(0, 1)')
    result.kills = options.kills - worker.deathsLeft()
    if (result.kills < options.kills)
      result.details.push(`only ${result.kills} of ${options.kills} kills happened: too few jobs for them`)
  } finally {
    await core.dispose()
    await llm.close()
    rmSync(home, { recursive: true, force: true })
  }
  result.seconds = Math.round((Date.now() - started) / 100) / 10
  return result
}

/** One conversation of `count` nodes, and a batch summarising them all. */
async function queueSummaries(core: Core, count: number): Promise<{ batch: string; queued: number }> {
  await call(core, 'update_settings', { language: 'en' })
  const flow = (await call(core, 'create_flow', { name: 'under fire' })) as Flow
  for (let n = 0; n < count; n++)
    await call(core, 'create_node', { flow_id: flow.id, prompt: `question ${n}`, response: `answer ${n}` })
  return (await call(core, 'build_summaries', { flow_id: flow.id })) as { batch: string; queued: number }
}

async function call(core: Core, method: string, input: unknown): Promise<unknown> {
  const r = await core.router.call(method, input, { transport: 'internal' })
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`)
  return r.value
}
