import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'

export interface RawConnection {
  socket: Socket
  /** Resolves with the host's close frame (or code 1006 when the socket ended without one). */
  closed: Promise<{ code: number; reason: string }>
}

/**
 * A WebSocket client made of a bare TCP socket: it does the opening handshake with the token,
 * then lets a test write any bytes it likes — frames no well-behaved library would send.
 */
export function openRawWebSocket(port: number, token: string, timeoutMs = 10_000): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no handshake answer within ${timeoutMs} ms`))
    }, timeoutMs)
    let buffer = Buffer.alloc(0)
    let upgraded = false
    let settleClose: (c: { code: number; reason: string }) => void = () => {}
    const closed = new Promise<{ code: number; reason: string }>((r) => (settleClose = r))

    socket.on('error', () => {}) // a reset after the close frame is expected; `closed` reports the outcome
    socket.on('close', () => {
      clearTimeout(timer)
      if (!upgraded) reject(new Error('the host closed the socket during the handshake'))
      settleClose({ code: 1006, reason: '' })
    })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buffer.subarray(0, end).toString('latin1')
        buffer = buffer.subarray(end + 4)
        if (!head.startsWith('HTTP/1.1 101')) {
          socket.destroy()
          reject(new Error(`handshake refused: ${head.split('\r\n')[0]}`))
          return
        }
        upgraded = true
        clearTimeout(timer)
        resolve({ socket, closed })
      }
      const close = readCloseFrame(buffer)
      if (close) settleClose(close)
    })
    socket.write(
      [
        `GET /ws?token=${token} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    )
  })
}

/** The first close frame among the (unmasked) server frames in `data`, if it has arrived whole. */
function readCloseFrame(data: Buffer): { code: number; reason: string } | null {
  let at = 0
  while (at + 2 <= data.length) {
    const opcode = data[at]! & 0x0f
    let length = data[at + 1]! & 0x7f
    let start = at + 2
    if (length === 126) {
      if (start + 2 > data.length) return null
      length = data.readUInt16BE(start)
      start += 2
    } else if (length === 127) {
      if (start + 8 > data.length) return null
      length = Number(data.readBigUInt64BE(start))
      start += 8
    }
    if (start + length > data.length) return null
    if (opcode === 0x8) {
      const payload = data.subarray(start, start + length)
      return {
        code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005,
        reason: payload.subarray(2).toString('utf8'),
      }
    }
    at = start + length
  }
  return null
}
