import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { importFileLines, openImportFile, readImportFileSync } from './importFile'

const home = useTempHome()

async function lines(path: string): Promise<string[]> {
  const handle = await openImportFile(path, { name: 'log.txt', maxBytes: 1 << 30 })
  const out: string[] = []
  try {
    for await (const { text } of importFileLines(handle, 'log.txt')) out.push(text)
  } finally {
    await handle.close()
  }
  return out
}

describe('importFileLines', () => {
  it('reads lines of multi-byte text across read chunks exactly, CRLF or LF, a byte-order mark only at the start', async () => {
    // Three-byte characters, so line and chunk boundaries fall inside characters.
    const expected = Array.from({ length: 20_000 }, (_, i) => `${i}: こんにちは、\uFEFF世界 🌏`)
    const path = join(home(), 'log.txt')
    writeFileSync(path, '\uFEFF' + expected.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join(''))
    expect(await lines(path)).toEqual(expected)
  })

  it('refuses invalid UTF-8 with the line it is on, past the first chunk', async () => {
    const path = join(home(), 'log.txt')
    const good = Buffer.from('日本語のテキスト\n'.repeat(30_000))
    writeFileSync(path, Buffer.concat([good, Buffer.from([0xe6, 0x97]), Buffer.from('\nmore\n')]))
    await expect(lines(path)).rejects.toThrow(/^log\.txt:30001: is not valid UTF-8 text$/)
  })

  it('refuses a NUL character with its line', async () => {
    const path = join(home(), 'log.txt')
    writeFileSync(path, 'a\nb\nc\0\n')
    await expect(lines(path)).rejects.toThrow(/^log\.txt:3: holds a NUL character$/)
    expect(() => readImportFileSync(path, { name: 'x.xml', maxBytes: 100 })).toThrow(
      /^x\.xml:3: holds a NUL character$/,
    )
  })

  it('refuses a file over the limit before reading it, naming the limit', async () => {
    const path = join(home(), 'log.txt')
    writeFileSync(path, 'x'.repeat(2 * 1024 * 1024 + 1))
    expect(() => readImportFileSync(path, { name: 'x.xml', maxBytes: 2 * 1024 * 1024 })).toThrow(
      'x.xml: is 2097153 bytes, over the limit of 2097152 bytes (2 MiB)',
    )
  })
})
