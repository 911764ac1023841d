import { parentPort, workerData } from 'node:worker_threads'
import { appMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import { summarizeNode } from '../graph/summarizeJob'
import { LlmRegistry, providersFromEnv } from '../llm/providers'
import { worldJobHandlers } from '../world/worldJobs'
import { PermanentJobError, isRetryable } from '../kernel/jobs/handlers'
import type { LlmJobHandler } from '../llm/jobContext'
import type { ProviderConfig } from '../llm/providers'
import { JobQueue } from '../kernel/jobs/jobQueue'
import type { FromWorker, ToWorker, WorkerInit } from '../kernel/jobs/protocol'

// The job worker thread: claims jobs from loomverse.db and runs them, so LLM calls and long
// work never sit on the main event loop. Its own SQLite connection shares the WAL file.

const handlers: Record<string, LlmJobHandler> = {
  'graph.summarize': summarizeNode,
  ...worldJobHandlers,
}

const init = workerData as WorkerInit<ProviderConfig[]>
const port = parentPort!
const send = (message: FromWorker) => port.postMessage(message)

const { db } = openDatabase(init.dbPath, { migrations: appMigrations, label: 'loomverse.db' })
const queue = new JobQueue(db, init.queue)
const llm = new LlmRegistry(
  init.config ? new Map(init.config.map((p) => [p.id, p])) : providersFromEnv(process.env),
)
const running = new AbortController()
let stopping = false
let wake: (() => void) | null = null

port.on('message', (message: ToWorker<ProviderConfig[]>) => {
  if (message.type === 'config') llm.replace(new Map(message.config.map((p) => [p.id, p])))
  if (message.type === 'stop') {
    stopping = true
    running.abort()
  }
  wake?.()
})

async function runOne(): Promise<boolean> {
  const job = queue.claim()
  if (!job) return false
  const handler = handlers[job.kind]
  try {
    if (!handler) throw new PermanentJobError(`no handler for job kind "${job.kind}"`)
    await handler(JSON.parse(job.payload_json), {
      db,
      llm,
      env: process.env,
      signal: running.signal,
      nodesChanged: (ids) => send({ type: 'nodes_changed', node_ids: ids }),
    })
    queue.complete(job.id)
    send({ type: 'job_finished', job_id: job.id, kind: job.kind, batch: job.batch, outcome: 'done' })
  } catch (e) {
    if (stopping) return false // leave it running: the lease brings it back next start
    const message = e instanceof Error ? e.message : String(e)
    const outcome = queue.fail(job.id, message, { retryable: isRetryable(e) })
    send({ type: 'job_finished', job_id: job.id, kind: job.kind, batch: job.batch, outcome, error: message })
  }
  return true
}

async function loop(): Promise<void> {
  send({ type: 'started', reclaimed: queue.reclaimExpired() })
  while (!stopping) {
    if (await runOne()) continue
    // A worker that died after we started may still hold a job: take it back once its lease runs out.
    if (queue.reclaimExpired() > 0) continue
    const due = queue.nextDue()
    const untilDue = due === null ? Infinity : Math.max(0, due * 1000 - Date.now())
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.min(untilDue, init.pollMs ?? 2000))
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
    wake = null
  }
  db.close()
  send({ type: 'stopped' })
  port.close() // nothing else holds the thread open: it exits
}

loop().catch((e: unknown) => {
  send({
    type: 'log',
    level: 'error',
    message: `job worker crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
  })
  process.exit(1)
})
