import { parentPort, workerData } from 'node:worker_threads'
import { LlmRegistry } from '../llm/providers'
import { openMemory } from '../memory/db'
import type { FromMemoryWorker, MemoryWorkerInit, ToMemoryWorker } from '../memory/protocol'
import { MemoryJobRunner } from '../memory/runner'

// The memory worker thread: runs the jobs of every persona database it has been woken for,
// so LLM extraction and re-indexing never sit on the main event loop. Each database has its
// own connection here, sharing the WAL file with the main thread's.

const init = workerData as MemoryWorkerInit
const port = parentPort!
const send = (m: FromMemoryWorker) => port.postMessage(m)
const llm = new LlmRegistry(new Map(init.providers.map((p) => [p.id, p])))
const runners = new Map<string, MemoryJobRunner>()
const running = new AbortController()
let stopping = false
let wake: (() => void) | null = null

port.on('message', (m: ToMemoryWorker) => {
  if (m.type === 'wake') {
    llm.replace(new Map(m.providers.map((p) => [p.id, p])))
    if (!runners.has(m.dbPath)) {
      const runner = new MemoryJobRunner(openMemory(m.dbPath), llm, init.queue)
      // A worker that died holding jobs: their leases have run out, take them back.
      runner.queue.reclaimExpired()
      runners.set(m.dbPath, runner)
    }
  }
  if (m.type === 'stop') {
    stopping = true
    running.abort()
  }
  wake?.()
})

async function loop(): Promise<void> {
  while (!stopping) {
    let worked = false
    for (const [dbPath, runner] of runners) {
      try {
        // Leases of a worker that died after this one opened the database run out here too.
        if (runner.queue.reclaimExpired() > 0) worked = true
        const r = await runner.runOne(running.signal)
        if (r) {
          worked = true
          send({ type: 'job_finished', dbPath, job_id: r.job.id, kind: r.job.kind, outcome: r.outcome, error: r.error })
        } else send({ type: 'idle', dbPath })
      } catch (e) {
        if (stopping) break
        send({ type: 'log', message: `memory job failed in ${dbPath}: ${e instanceof Error ? e.message : String(e)}` })
      }
    }
    if (worked || stopping) continue
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, init.pollMs ?? 2000)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
    wake = null
  }
  for (const r of runners.values()) r.store.db.close()
  send({ type: 'stopped' })
  port.close()
}

loop().catch((e: unknown) => {
  send({ type: 'log', message: `memory worker crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` })
  process.exit(1)
})
