import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { startServer, type Server } from '../support/serveProcess'
import type { Frame } from './corpora'
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
      const socket = await handshake(server)
      await writeAndSettle(socket, frame.bytes)
      socket.destroy()
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

/** A raw TCP connection upgraded to a WebSocket with the host's token: from here on, bytes go out as they are. */
function handshake(server: Server): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1')
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error('the WebSocket handshake got no answer in 10 s'))
    }, 10_000)
    let head = ''
    socket.once('connect', () =>
      socket.write(
        [
          `GET /ws?token=${server.token} HTTP/1.1`,
          `Host: 127.0.0.1:${server.port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      ),
    )
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      clearTimeout(timer)
      socket.off('data', onData)
      if (head.startsWith('HTTP/1.1 101')) resolve(socket)
      else {
        socket.destroy()
        reject(new Error(`the host refused the upgrade: ${head.split('\r\n')[0]}`))
      }
    }
    socket.on('data', onData)
    socket.once('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
  })
}

/**
 * Writes the frame, then waits for the host's reaction: a close (as a bad frame deserves), a
 * reply, or — for a frame it rightly waits on, such as an unfinished fragment — nothing for a while.
 */
function writeAndSettle(socket: Socket, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(settled, SETTLE_MS)
    socket.once('data', settled)
    socket.once('close', settled)
    socket.on('error', () => {}) // a reset from a dying host is what we are here to observe, not an error
    socket.write(bytes)
  })
}

/** The error line of a crash report (Node prints the stack, then its version). */
function crashLine(text: string): string {
  const lines = text.trim().split('\n')
  return (lines.find((l) => /\b\w*Error\b|Unhandled/.test(l)) ?? lines.at(-1) ?? '(nothing on stderr)')
    .trim()
    .slice(0, 300)
}
