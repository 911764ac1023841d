import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { nativeBinding, vecExtensionPath } from './open'

export interface DatabaseCheck {
  ok: boolean
  userVersion: number | null
  /** SQLite's first complaints, or why it would not open. */
  problem: string | null
}

/**
 * The check, run in a thread of its own: `quick_check` or `integrity_check` is one statement
 * that cannot be sliced (a per-table check skips the page accounting the whole-file check
 * does), and on a database of gigabytes it held the main thread for seconds, every scheduled
 * backup. CommonJS evaluated in the worker, so no entry has to be built beside the bundle;
 * better-sqlite3 and sqlite-vec are named by the paths the main thread resolved.
 */
const CHECK_SOURCE = `
const { parentPort, workerData: w } = require('node:worker_threads')
const Database = require(w.module)
function check() {
  let db
  try {
    db = new Database(w.file, { readonly: true, fileMustExist: true, nativeBinding: w.nativeBinding })
    db.loadExtension(w.vec)
    db.pragma('busy_timeout = 5000')
  } catch (e) {
    return { ok: false, userVersion: null, problem: 'does not open: ' + e.message }
  }
  try {
    const said = db.pragma(w.pragma, { simple: false }).map((row) => Object.values(row)[0])
    const userVersion = db.pragma('user_version', { simple: true })
    const ok = said.length === 1 && said[0] === 'ok'
    return { ok, userVersion, problem: ok ? null : said.join('; ') }
  } catch (e) {
    return { ok: false, userVersion: null, problem: e.message }
  } finally {
    db.close()
  }
}
parentPort.postMessage(check())
`

/**
 * Opens a database read-only and asks SQLite whether it is sound: `quick` (O(n)) when checking
 * a backup just taken while the app runs, the full integrity_check before a restore. Off the
 * event loop (see CHECK_SOURCE); a thread that dies answers as a failed check, with why.
 */
export function checkDatabase(file: string, depth: 'quick' | 'full'): Promise<DatabaseCheck> {
  const workerData = {
    file,
    pragma: depth === 'quick' ? 'quick_check(5)' : 'integrity_check(5)',
    module: createRequire(import.meta.url).resolve('better-sqlite3'),
    nativeBinding: nativeBinding(),
    vec: vecExtensionPath(),
  }
  return new Promise((resolve) => {
    const worker = new Worker(CHECK_SOURCE, { eval: true, workerData })
    let answered = false
    const answer = (check: DatabaseCheck) => {
      if (answered) return
      answered = true
      resolve(check)
    }
    worker.once('message', (check: DatabaseCheck) => answer(check))
    worker.once('error', (e) => answer({ ok: false, userVersion: null, problem: `the check failed: ${e.message}` }))
    worker.once('exit', (code) =>
      answer({ ok: false, userVersion: null, problem: `the check ended without an answer (exit code ${code})` }),
    )
  })
}
