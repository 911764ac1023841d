import { describe, expect, it } from 'vitest'
import { CUT_HEAD_BYTES, CUT_META_KEY, CappedReadBuffer, WHOLE_MESSAGE_BYTES } from './mcpReadBuffer'

// The stdio reader in place of the SDK's: whole messages as the SDK reads them, a message over
// the limit cut to its head in bounded memory, whichever end of it the server wrote the id at.

const answer = (id: number, text: string, idFirst = false) =>
  idFirst
    ? JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } })
    : JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id })

function feed(buffer: CappedReadBuffer, text: string, chunk = 64 * 1024): void {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += chunk) buffer.append(bytes.subarray(at, at + chunk))
}

describe('CappedReadBuffer', () => {
  it('reads messages split anywhere across chunks, several per chunk', () => {
    const buffer = new CappedReadBuffer()
    feed(buffer, `${answer(1, 'one')}\n${answer(2, 'twö ✓')}\r\n${answer(3, 'three')}\n`, 7)
    const texts = [1, 2, 3].map(
      () => buffer.readMessage() as unknown as { id: number; result: { content: [{ text: string }] } },
    )
    expect(texts.map((m) => [m.id, m.result.content[0].text])).toEqual([
      [1, 'one'],
      [2, 'twö ✓'],
      [3, 'three'],
    ])
    expect(buffer.readMessage()).toBeNull()
  })

  it.each([false, true])(
    'cuts a message over the limit to its first text, keeping its id (id first: %s)',
    (idFirst) => {
      const buffer = new CappedReadBuffer()
      const text = 'a\\"b\n' + 'z'.repeat(WHOLE_MESSAGE_BYTES + 5)
      const line = answer(7, text, idFirst)
      feed(buffer, `${line}\n${answer(8, 'after')}\n`)
      const cut = buffer.readMessage() as unknown as {
        id: number
        result: { content: Array<{ text: string }>; _meta: Record<string, { bytes: number; kept: number }> }
      }
      expect(cut.id).toBe(7)
      expect(cut.result._meta[CUT_META_KEY]).toEqual({ bytes: Buffer.byteLength(line), kept: CUT_HEAD_BYTES })
      const got = cut.result.content[0]!.text
      expect(got.startsWith('a\\"b\nzzz')).toBe(true)
      expect(got.length).toBeGreaterThan(CUT_HEAD_BYTES - 100)
      expect(got.length).toBeLessThanOrEqual(CUT_HEAD_BYTES)
      expect(buffer.readMessage()).toMatchObject({ id: 8 })
    },
  )

  it('refuses a cut message that is not an answer, and reads on after it', () => {
    const buffer = new CappedReadBuffer()
    const notice = JSON.stringify({ jsonrpc: '2.0', method: 'notify', params: { x: 'q'.repeat(WHOLE_MESSAGE_BYTES) } })
    feed(buffer, `${notice}\n${answer(9, 'fine')}\n`)
    expect(() => buffer.readMessage()).toThrow(/not a tool's answer/)
    expect(buffer.readMessage()).toMatchObject({ id: 9 })
  })
})
