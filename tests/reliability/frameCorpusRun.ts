import { startServer } from '../support/serveProcess'
import type { Frame } from './corpora'
import { openRawWebSocket, type RawConnection } from './rawWsClient'
import { WireClient } from './wireClient'

export interface FrameResult {
  suite: 'frames'
  frames: number
  /** Frames after which the host process was gone. Must be 0. */
  host_crashes: number
  /** Frames after which a well-behaved client on its own connection got no answer. Must be 0. */
  good_client_unanswered: number
  details: string[]
}

/** How long a frame the host does not close the connection over may keep it open before we move on. */
const SETTLE_MS = 3_000

/**
 * Sends each frame of the corpus on its own authenticated connection to the built app,
 * then asks `app_info` on a separate, well-behaved connection: the host must still be up and
 * answering. A crash is counted, and the app started again so one bad frame cannot hide the next.
 */
export async function sendFrames(corpus: readonly Frame[]): Promise<FrameResult> {
  const result: FrameResult = { suite: 'frames', frames: 0, host_crashes: 0, good_client_unanswered: 0, details: [] }
  let server = await startServer()
  let good = await WireClient.open(server.wsUrl)
  try {
    for (const frame of corpus) {
      let crashed = false
      void server.exited.then(() => (crashed = true))
      const connection = await openRawWebSocket(server.port, server.token)
      await writeAndSettle(connection, frame.bytes)
      connection.socket.destroy()
      const answered = await good.call('app_info', {}, 10_000).then(
        (r) => r.ok,
        () => false,
      )
      // A host that dropped the good client is dying or dead: give its exit a moment to show.
      if (!answered) await Promise.race([server.exited, new Promise((r) => setTimeout(r, 5_000))])
      result.frames++
      if (!answered) {
        result.good_client_unanswered++
        result.details.push(`${frame.name}: a good client got no answer afterwards`)
      }
      if (crashed || !answered) {
        if (crashed) {
          result.host_crashes++
          result.details.push(`${frame.name}: the host died: ${crashLine(server.stderr())}`)
        }
        good.close()
        await server.stop()
        server = await startServer()
        good = await WireClient.open(server.wsUrl)
      }
    }
  } finally {
    good.close()
    await server.stop()
  }
  return result
}

/**
 * Writes the frame, then waits for the host's reaction: a close (as a bad frame deserves), or —
 * for a frame it rightly waits on, such as an unfinished fragment — nothing for a while.
 */
async function writeAndSettle(connection: RawConnection, bytes: Buffer): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  connection.socket.write(bytes)
  await Promise.race([connection.closed, new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_MS)))])
  clearTimeout(timer)
}

/** The error line of a crash report (Node prints the stack, then its version). */
function crashLine(text: string): string {
  const lines = text.trim().split('\n')
  return (lines.find((l) => /\b\w*Error\b|Unhandled/.test(l)) ?? lines.at(-1) ?? '(nothing on stderr)')
    .trim()
    .slice(0, 300)
}
