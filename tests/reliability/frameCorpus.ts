// Malformed WebSocket frames a client might send the loopback host, each with the close code
// RFC 6455 (and the ws library) answers it with. Each one ended the host process before the
// host caught socket errors; the host must close only that connection and keep serving.
// Shared by the host's unit test and the reliability suite.

import { MAX_MESSAGE_BYTES } from '../../main/host/wsHost'

export interface RawFrame {
  /** A short name for reports. */
  name: string
  /** What is wrong with it. */
  why: string
  /** The bytes to write after the opening handshake. */
  bytes: Buffer
  /** The close code the host must answer with. */
  closeCode: 1002 | 1007 | 1009
}

interface FrameParts {
  opcode: number
  payload?: Buffer
  fin?: boolean
  rsv1?: boolean
  /** Clients must mask every frame; false builds a frame that breaks that rule. */
  masked?: boolean
  /** Claims this payload length in the header without sending that many bytes. */
  claimedLength?: number
}

/** One frame as a client writes it (RFC 6455 §5.2): header, masking key, masked payload. */
export function frame({
  opcode,
  payload = Buffer.alloc(0),
  fin = true,
  rsv1 = false,
  masked = true,
  claimedLength,
}: FrameParts): Buffer {
  const length = claimedLength ?? payload.length
  const first = (fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (opcode & 0x0f)
  const maskBit = masked ? 0x80 : 0
  let header: Buffer
  if (length < 126) header = Buffer.from([first, maskBit | length])
  else if (length < 0x10000) {
    header = Buffer.alloc(4)
    header.writeUInt8(first, 0)
    header.writeUInt8(maskBit | 126, 1)
    header.writeUInt16BE(length, 2)
  } else {
    header = Buffer.alloc(10)
    header.writeUInt8(first, 0)
    header.writeUInt8(maskBit | 127, 1)
    header.writeBigUInt64BE(BigInt(length), 2)
  }
  if (!masked) return Buffer.concat([header, payload])
  const key = Buffer.from([0x37, 0xfa, 0x21, 0x3d])
  const body = Buffer.from(payload.map((b, i) => b ^ key[i % 4]!))
  return Buffer.concat([header, key, body])
}

const text = (s: string) => Buffer.from(s, 'utf8')
const closePayload = (code: number) => {
  const b = Buffer.alloc(2)
  b.writeUInt16BE(code, 0)
  return b
}

export const frameCorpus: readonly RawFrame[] = [
  {
    name: 'invalid-utf8-text',
    why: 'a text message whose bytes are not UTF-8',
    bytes: frame({ opcode: 0x1, payload: Buffer.from([0x7b, 0xc3, 0x28, 0x7d]) }),
    closeCode: 1007,
  },
  {
    name: 'over-limit',
    why: `a message claiming one byte more than the host's ${MAX_MESSAGE_BYTES}-byte limit`,
    bytes: frame({ opcode: 0x1, claimedLength: MAX_MESSAGE_BYTES + 1 }),
    closeCode: 1009,
  },
  {
    name: 'close-code-1005',
    why: 'a close frame carrying 1005, which must never be sent on the wire',
    bytes: frame({ opcode: 0x8, payload: closePayload(1005) }),
    closeCode: 1002,
  },
  {
    name: 'reserved-opcode',
    why: 'data opcode 3, reserved by RFC 6455',
    bytes: frame({ opcode: 0x3, payload: text('{}') }),
    closeCode: 1002,
  },
  {
    name: 'reserved-control-opcode',
    why: 'control opcode 0xB, reserved by RFC 6455',
    bytes: frame({ opcode: 0xb }),
    closeCode: 1002,
  },
  {
    name: 'rsv1-without-extension',
    why: 'RSV1 set although no extension (permessage-deflate) was agreed',
    bytes: frame({ opcode: 0x1, rsv1: true, payload: text('{"id":1}') }),
    closeCode: 1002,
  },
  {
    name: 'unmasked-client-frame',
    why: 'a client frame without a masking key',
    bytes: frame({ opcode: 0x1, masked: false, payload: text('{"id":1,"action":"app_info"}') }),
    closeCode: 1002,
  },
  {
    name: 'fragmented-ping',
    why: 'a control frame with FIN clear (control frames must not be fragmented)',
    bytes: frame({ opcode: 0x9, fin: false }),
    closeCode: 1002,
  },
  {
    name: 'oversized-ping',
    why: 'a control frame with more than 125 bytes of payload',
    bytes: frame({ opcode: 0x9, payload: Buffer.alloc(126, 0x61) }),
    closeCode: 1002,
  },
  {
    name: 'orphan-continuation',
    why: 'a continuation frame with no message to continue',
    bytes: frame({ opcode: 0x0, payload: text('tail') }),
    closeCode: 1002,
  },
]
