/**
 * Work that can wait a little — announcing a flow, counting an API token's calls, keeping a
 * MemoryPack's "why" — is put off while a reply's request is out and its first text has not
 * come back, so the main thread is free to pass that text on the moment it arrives. Before,
 * such work ran in the turn right after the request left, and a model that answers within a
 * couple of milliseconds (a local server) had its first text wait for it.
 *
 * It runs once every reply waiting has its first text (or has ended), and after `MAX_WAIT_MS`
 * at the latest: a model that takes seconds to start must not hold the rest of the app back.
 * Past that deadline, with a reply still waiting, it runs one piece per turn of the event loop,
 * so a first text arriving meanwhile waits for one piece at most, not for all of them: on a busy
 * machine a fast model's first text came just after the deadline, behind ~2 ms of such work.
 *
 * `flushed()` is for one who must read what that work wrote (a reply's `done`, whose caller may
 * read the pack's "why" at once): everything queued before it runs in the next turn, whether or
 * not another reply still waits for its first text.
 */
export const MAX_WAIT_MS = 5

let waiting = 0
const queued: Array<() => void> = []
let deadline: ReturnType<typeof setTimeout> | null = null

/** flushed()'s places in the queue not reached yet: the queue runs up to the last of them, waiting or not. */
const flushes = new Set<() => void>()

let checkQueued = false
/** A piece is due in the next turn (runPiece). */
let piecewise = false

/**
 * Runs `work` once the main thread is free of the current turn and no reply waits for its first
 * text. Whether one waits is asked when the turn is over, not when the work is asked for: a reply
 * whose request leaves later in the same turn (a MemoryPack's "why" and an API token's count are
 * asked for before it) is waited for too. Run in the next turn as soon as asked, they landed
 * between the request and its first text: ~1.5 ms of a fast model's first /api/chat delta.
 */
export function whenFree(work: () => void): void {
  queued.push(work)
  if (waiting > 0) deadline ??= setTimeout(runQueued, MAX_WAIT_MS)
  else if (!checkQueued) {
    checkQueued = true
    setImmediate(runQueuedIfFree)
  }
}

/**
 * Resolves once all the work queued before it has run: in the next turn, not held back by a reply
 * that still waits for its first text (nor for the longest wait). Work queued after it waits as usual.
 */
export function flushed(): Promise<void> {
  return new Promise((resolve) => {
    const mark = () => {
      flushes.delete(mark)
      resolve()
    }
    queued.push(mark)
    flushes.add(mark)
    setImmediate(runFlushed)
  })
}

/** Runs the queue up to the last flush's place (a mark run by runQueued or runPiece first is gone from `flushes`). */
function runFlushed(): void {
  while (flushes.size > 0) {
    const work = queued.shift()
    if (!work) return
    try {
      work()
    } catch (e) {
      // As runQueued does: thrown, and the rest up to the mark still runs, in the next turn.
      setImmediate(runFlushed)
      throw e
    }
  }
}

function runQueuedIfFree(): void {
  checkQueued = false
  if (queued.length === 0) return
  if (waiting === 0) runQueued()
  else deadline ??= setTimeout(runQueued, MAX_WAIT_MS)
}

/**
 * A reply's request is out: work asked for meanwhile waits. Call the function returned when its
 * first text has been passed on, or when the reply ends without any (more calls do nothing).
 */
export function awaitingFirstText(): () => void {
  waiting++
  let done = false
  return () => {
    if (done) return
    done = true
    waiting--
    if (waiting === 0 && queued.length > 0) setImmediate(runQueued)
  }
}

function runQueued(): void {
  if (deadline) clearTimeout(deadline)
  deadline = null
  if (waiting > 0) {
    if (!piecewise) runPiece()
    return
  }
  const work = queued.splice(0)
  for (let i = 0; i < work.length; i++) {
    try {
      work[i]!()
    } catch (e) {
      // As a failing setImmediate would: thrown, and the rest still runs, in the next turn.
      queued.unshift(...work.slice(i + 1))
      if (queued.length > 0) setImmediate(runQueued)
      throw e
    }
  }
}

/** Past the deadline: the oldest piece now, the next in the next turn (the rest at once if no reply waits by then). */
function runPiece(): void {
  piecewise = false
  if (waiting === 0) return runQueued()
  const work = queued.shift()
  if (queued.length > 0) {
    piecewise = true
    setImmediate(runPiece)
  }
  work?.()
}
