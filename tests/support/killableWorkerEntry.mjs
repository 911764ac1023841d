// A job or memory worker entry that dies on cue, for tests of the worker supervisor: it watches
// the messages the real entry posts and, at the chosen one, ends the thread the way a crash does
// (an exit with code 1 in the middle of a job, or an uncaught error). A shared counter spans the
// restarted threads, so a test decides how many deaths there are in all.
import { parentPort, workerData } from 'node:worker_threads'

const { deathsLeft, dieOn, nth, how, message } = workerData.killSwitch
const left = new Int32Array(deathsLeft)
const post = parentPort.postMessage.bind(parentPort)
let seen = 0

parentPort.postMessage = (m, transfer) => {
  post(m, transfer)
  if (m?.type !== dieOn || ++seen !== nth || Atomics.sub(left, 0, 1) <= 0) return
  // Synchronous, so whatever the job does next never runs: it is still claimed when the thread ends.
  if (how === 'exit') process.exit(1)
  // Raised outside every try of the worker: the main thread sees it as the Worker's 'error' event.
  setImmediate(() => {
    throw new Error(message)
  })
}

await import(workerData.realEntry)
