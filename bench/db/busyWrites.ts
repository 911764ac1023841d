// The main thread's small write transactions while another thread holds the write lock ~2 ms in
// every ~10 (busyHolder.mjs): waiting through SQLite's busy handler (it sleeps 1, 2, 5, 10… ms)
// beside waiting in 0.2 ms steps (main/db/shortBusyWaits.ts). Prints one JSON line.
// Run with `npm run bench:db`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { openDatabase, type Db } from '../../main/db/open'
import { waitForWritesInShortSteps } from '../../main/db/shortBusyWaits'
import { percentile } from '../support'

const WRITES = 400
const dir = mkdtempSync(join(tmpdir(), 'loomverse-bench-busy-'))

async function measure(name: string, prepare: (db: Db) => void) {
  const file = join(dir, `${name}.db`)
  const db = openDatabase(file, { migrations: [], label: `${name}.db` }).db
  db.exec('CREATE TABLE t (b BLOB)')
  prepare(db)
  const holder = new Worker(new URL('./busyHolder.mjs', import.meta.url), { workerData: { file } })
  await new Promise((resolve) => holder.once('message', resolve))
  const insert = db.prepare('INSERT INTO t VALUES (randomblob(200))')
  const write = db.transaction(() => insert.run())
  const ms: number[] = []
  for (let i = 0; i < WRITES; i++) {
    const t0 = performance.now()
    write.immediate()
    ms.push(performance.now() - t0)
    await new Promise((resolve) => setTimeout(resolve, 3))
  }
  holder.postMessage('stop')
  await new Promise((resolve) => holder.once('message', resolve))
  await holder.terminate()
  db.close()
  return {
    p50_ms: percentile(ms, 50),
    p95_ms: percentile(ms, 95),
    p99_ms: percentile(ms, 99),
    max_ms: +Math.max(...ms).toFixed(2),
  }
}

try {
  // Alternated, so a change in the machine's load touches both.
  const busyHandler = await measure('busy-handler', () => {})
  const shortSteps = await measure('short-steps', waitForWritesInShortSteps)
  console.log(
    JSON.stringify({ bench: 'db.busy_writes', writes: WRITES, busy_handler: busyHandler, short_steps: shortSteps }),
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
