// bench/db/busyWrites.ts's other thread: holds the database's write lock ~2 ms in every ~10,
// as a worker writing a job's results does, until told to stop.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'

const db = new Database(workerData.file, { timeout: 5000 })
const insert = db.prepare('INSERT INTO t VALUES (randomblob(4000))')
const hold = db.transaction(() => {
  const until = performance.now() + 2
  while (performance.now() < until) insert.run()
})
let stopped = false
parentPort.on('message', () => (stopped = true))
parentPort.postMessage('holding')
while (!stopped) {
  hold.immediate()
  await new Promise((resolve) => setTimeout(resolve, 8))
}
db.close()
parentPort.postMessage('stopped')
