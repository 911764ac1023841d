import { parentPort, workerData } from 'node:worker_threads'
import type { JobRunner } from '../kernel/jobs/jobRunner'
import type { FromWorker, ToWorker, WorkerInit } from '../kernel/jobs/protocol'
import { claimedMessage, finishedMessage, runWorkerLoop } from '../kernel/jobs/workerLoop'
import { LlmRegistry, type ProviderConfig } from '../llm/providers'
import { checkpointEvery } from '../db/walCheckpoints'
import { openMemory } from '../memory/store/db'
import { MemoryJobRunner } from '../memory/jobs/runner'
import { embedSentences } from '../memory/retrieval/sentenceModel'

// The memory worker thread: runs the jobs of every persona database it has been woken for,
// so LLM extraction and re-indexing never sit on the main event loop. Each database has its
// own connection here, sharing the WAL file with the main thread's.

const init = workerData as WorkerInit<ProviderConfig[]>
const port = parentPort!
const send = (m: FromWorker) => port.postMessage(m)
const llm = new LlmRegistry(new Map((init.config ?? []).map((p) => [p.id, p])))
const runners = new Map<string, MemoryJobRunner>()
const running = new AbortController()
let wake: (() => void) | null = null

port.on('message', (m: ToWorker<ProviderConfig[]>) => {
  if (m.type === 'config') llm.replace(new Map(m.config.map((p) => [p.id, p])))
  if (m.type === 'wake' && m.dbPath && !runners.has(m.dbPath))
    runners.set(m.dbPath, new MemoryJobRunner(openMemory(m.dbPath), llm, init.queue))
  if (m.type === 'stop') running.abort()
  if (m.type === 'ask') return void answer(m)
  wake?.()
})

/** The questions the main thread may ask: only a query's sentence vector so far. */
function answer(m: Extract<ToWorker, { type: 'ask' }>): void {
  const reply = (r: { output?: unknown; error?: string }) => send({ type: 'answer', id: m.id, ...r })
  if (m.question !== 'embed_sentences') return reply({ error: `unknown question ${m.question}` })
  embedSentences(m.input as string[]).then(
    (output) => reply({ output }),
    (e: unknown) => reply({ error: e instanceof Error ? e.message : String(e) }),
  )
}

async function main(): Promise<void> {
  send({ type: 'started' })
  const stopCheckpoints = checkpointEvery(
    () => [...runners.values()].map((r) => r.store.db),
    (db, e) => send({ type: 'log', level: 'error', message: `memory checkpoint of ${db.name} failed: ${String(e)}` }),
  )
  await runWorkerLoop({
    runners: () => runners as Map<string, JobRunner<unknown>>,
    signal: running.signal,
    pollMs: init.pollMs ?? 2000,
    claimed: (dbPath, job) => send(claimedMessage(dbPath, job)),
    finished: (dbPath, r) => send(finishedMessage(dbPath, r)),
    idle: (dbPath) => send({ type: 'idle', dbPath }),
    log: (message) => send({ type: 'log', level: 'error', message: `memory ${message}` }),
    onWake: (w) => (wake = w),
  })
  stopCheckpoints()
  for (const r of runners.values()) r.store.db.close()
  send({ type: 'stopped' })
  port.close()
}

main().catch((e: unknown) => {
  send({
    type: 'log',
    level: 'error',
    message: `memory worker crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
  })
  // Thrown on, not process.exit(1): the main thread's supervisor sees the error itself (the
  // Worker's 'error' event) and shows it as the reason it restarts or pauses the worker.
  throw e
})
