import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { readJsonArray } from './importJsonArray'

const home = useTempHome()

function file(content: string | Buffer): string {
  const path = join(home(), 'export.json')
  writeFileSync(path, content)
  return path
}

const read = (path: string) =>
  readJsonArray(path, { name: 'export.json', maxBytes: 1 << 30, notArray: 'is not a list' }).then(
    (items) => ({ items }),
    (e: unknown) => ({ error: (e as Error).message }),
  )

describe('readJsonArray', () => {
  it('gives every element as JSON.parse would, multi-byte text split across read chunks included', async () => {
    // ~2 MB of three-byte characters, nested objects: elements and characters straddle chunk ends.
    const items = Array.from({ length: 4_000 }, (_, i) => ({
      id: `c${i}`,
      title: `会話 ${i} 🌏`,
      mapping: { a: { parts: ['こんにちは、世界'.repeat(i % 17), i, null, true, -1.5e3] } },
    }))
    const json = JSON.stringify(items, null, 1)
    expect(await read(file('\uFEFF' + json))).toEqual({ items: JSON.parse(json) })
    expect(await read(file('  []\n'))).toEqual({ items: [] })
  })

  it('refuses what is not a list, broken JSON, invalid UTF-8 and NUL, naming the file and the line', async () => {
    expect(await read(file('{"a": [1, 2]}'))).toEqual({ error: 'export.json: is not a list' })
    expect(await read(file(''))).toEqual({ error: 'export.json: is not JSON (the file is empty)' })
    expect(((await read(file('[{"a": 1},\n{"b": '))) as { error: string }).error).toMatch(
      /^export\.json: is not JSON \(/,
    )
    expect(((await read(file('[1, 2] 3'))) as { error: string }).error).toMatch(/^export\.json: is not JSON \(/)
    const bad = Buffer.concat([Buffer.from('[\n"ok",\n"'), Buffer.from([0xc3, 0x28]), Buffer.from('"\n]')])
    expect(await read(file(bad))).toEqual({ error: 'export.json:3: is not valid UTF-8 text' })
    expect(await read(file('[\n"a",\n"b\u0000"]'))).toEqual({ error: 'export.json:3: holds a NUL character' })
  })
})
