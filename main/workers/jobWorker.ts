import { parentPort, workerData } from 'node:worker_threads'
import { appSchema } from '../appSchema'
import { openDatabase } from '../db/open'
import { checkpointEvery } from '../db/walCheckpoints'
import { graphJobHandlers } from '../graph/summarizeJob'
import { JobQueue } from '../kernel/jobs/jobQueue'
import { JobRunner } from '../kernel/jobs/jobRunner'
import type { FromWorker, ToWorker, WorkerInit } from '../kernel/jobs/protocol'
import { claimedMessage, finishedMessage, runWorkerLoop } from '../kernel/jobs/workerLoop'
import type { LlmJobContext } from '../llm/jobContext'
import { LlmRegistry, providersFromEnv, type ProviderConfig } from '../llm/providers'
import { EventBus } from '../kernel/events'
import { PersonaService } from '../persona/personaService'
import { readSetting } from '../settings/settingRows'
import { storyJobHandlers } from '../story/storyJobs'
import { worldJobHandlers } from '../world/worldJobs'

// The job worker thread: claims jobs from loomverse.db and runs them, so LLM calls and long
// work never sit on the main event loop. Its own SQLite connection shares the WAL file.
// Each domain's job handlers are wired here, in the composition root.

const init = workerData as WorkerInit<ProviderConfig[]>
const port = parentPort!
const send = (message: FromWorker) => port.postMessage(message)
const dbPath = init.dbPath!

const { db } = openDatabase(dbPath, { domains: appSchema, label: 'loomverse.db' })
const llm = new LlmRegistry(init.config ? new Map(init.config.map((p) => [p.id, p])) : providersFromEnv(process.env))
// Jobs only read personas; a bus of its own, which no window hears, keeps the service whole.
const personas = new PersonaService(db, new EventBus())
// Each domain builds its jobs' store over this connection; the context offers the rest as services.
const handlers = { ...graphJobHandlers(db), ...worldJobHandlers(db), ...storyJobHandlers(db) }
const runner = new JobRunner<LlmJobContext>(new JobQueue(db, init.queue), handlers, (_, signal) => ({
  llm,
  persona: (id) => personas.find(id),
  setting: (key) => readSetting(db, key),
  env: process.env,
  signal,
  nodesChanged: (ids) => send({ type: 'nodes_changed', node_ids: ids }),
}))
const running = new AbortController()
let wake: (() => void) | null = null

port.on('message', (message: ToWorker<ProviderConfig[]>) => {
  if (message.type === 'config') llm.replace(new Map(message.config.map((p) => [p.id, p])))
  if (message.type === 'stop') running.abort()
  wake?.()
})

async function main(): Promise<void> {
  send({ type: 'started' })
  const stopCheckpoints = checkpointEvery(
    () => [db],
    (_, e) => send({ type: 'log', level: 'error', message: `checkpoint of ${dbPath} failed: ${String(e)}` }),
  )
  await runWorkerLoop({
    runners: () => [[dbPath, runner as JobRunner<unknown>]],
    signal: running.signal,
    pollMs: init.pollMs ?? 2000,
    claimed: (db, job) => send(claimedMessage(db, job)),
    finished: (db, r) => send(finishedMessage(db, r)),
    log: (message) => send({ type: 'log', level: 'error', message }),
    onWake: (w) => (wake = w),
  })
  stopCheckpoints()
  db.close()
  send({ type: 'stopped' })
  port.close() // nothing else holds the thread open: it exits
}

main().catch((e: unknown) => {
  send({
    type: 'log',
    level: 'error',
    message: `job worker crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
  })
  // Thrown on, not process.exit(1): the main thread's supervisor sees the error itself (the
  // Worker's 'error' event) and shows it as the reason it restarts or pauses the worker.
  throw e
})
