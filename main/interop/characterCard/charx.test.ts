import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { ImportFileError } from '../../kernel/importFileError'
import { MAX_CARD_INFLATED_BYTES, MAX_CHARX_ENTRIES } from '../../kernel/importLimits'
import { pngWith, v2Card } from '../../../tests/support/foreignFiles'
import { readCard } from './readCard'
import { readZipEntries, writeCharx } from './charx'

// A CHARX card is a zip from anyone: its names, its number of files and what they inflate to are
// bounded before they cost memory, and every way it can be wrong answers bad_file naming the file.

const v3 = (data: Record<string, unknown> = {}) => ({
  spec: 'chara_card_v3',
  spec_version: '3.0',
  data: { ...v2Card.data, group_only_greetings: [], ...data },
})
const json = (v: unknown) => Buffer.from(JSON.stringify(v))

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run()
  } catch (e) {
    if (!(e instanceof ImportFileError)) throw e
    return { code: e.code, message: e.message }
  }
  throw new Error('the archive was read')
}

describe('CHARX cards', () => {
  it('reads card.json and the main icon its assets name with an embeded:// path', () => {
    const icon = pngWith({})
    const card = v3({
      assets: [
        { type: 'emotion', uri: 'embeded://assets/emotion/images/happy.png', name: 'happy', ext: 'png' },
        { type: 'icon', uri: 'embeded://assets/icon/images/main.png', name: 'main', ext: 'png' },
      ],
    })
    const file = writeCharx(card, [
      { path: 'assets/icon/images/main.png', data: icon },
      { path: 'assets/emotion/images/happy.png', data: pngWith({ other: 'x' }) },
    ])
    const read = readCard(file, 'seraphina.charx')
    expect(read).toMatchObject({ spec: 'v3', format: 'charx', data: { name: 'Seraphina' } })
    expect(read.icon).toEqual(icon)
  })

  it('takes a card whose icon is ccdefault: or missing from the archive, without a picture', () => {
    const card = v3({ assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }] })
    expect(readCard(writeCharx(card, []), 'a.charx')).toMatchObject({ format: 'charx', icon: null })
    const missing = v3({ assets: [{ type: 'icon', uri: 'embeded://assets/icon/images/gone.png', name: 'main' }] })
    expect(readCard(writeCharx(missing, []), 'b.charx').icon).toBeNull()
  })

  it('refuses a zip without card.json, and a card.json that is not JSON', () => {
    const other = Buffer.from(zipSync({ 'readme.txt': Buffer.from('hello') }))
    expect(refusal(() => readCard(other, 'x.charx'))).toEqual({
      code: 'bad_file',
      message: 'x.charx: is a zip archive without card.json (not a CHARX card)',
    })
    const broken = Buffer.from(zipSync({ 'card.json': Buffer.from('{ not json') }))
    expect(refusal(() => readCard(broken, 'y.charx')).message).toBe('y.charx: has a card.json that is not JSON')
  })

  it('refuses a file named .charx that is no zip, even one a JSON card renamed', () => {
    expect(refusal(() => readCard(json(v3()), 'renamed.CHARX'))).toEqual({
      code: 'bad_file',
      message: 'renamed.CHARX: is named .charx but is not a zip archive (a CHARX card is one)',
    })
    expect(readCard(json(v3()), 'card.json')).toMatchObject({ format: 'json' })
  })

  it('refuses entry names that climb out of the archive or are absolute', () => {
    for (const name of ['../evil.txt', 'assets/../../evil.txt', '/etc/passwd', 'C:/evil.txt', 'a\\..\\b']) {
      const file = Buffer.from(zipSync({ 'card.json': json(v3()), [name]: Buffer.from('x') }))
      expect(refusal(() => readCard(file, 'bad.charx')).message).toMatch(
        /^bad\.charx: entry 2 has a name that (points outside the archive|is not a relative path)$/,
      )
    }
  })

  it('refuses more entries than the limit before inflating them', () => {
    const files: Record<string, Uint8Array> = { 'card.json': json(v3()) }
    for (let i = 0; i < MAX_CHARX_ENTRIES; i++) files[`assets/other/other/${i}.txt`] = new Uint8Array(0)
    expect(refusal(() => readCard(Buffer.from(zipSync(files, { level: 0 })), 'many.charx'))).toEqual({
      code: 'bad_file',
      message: `many.charx: holds more than ${MAX_CHARX_ENTRIES} files, the limit for a card archive`,
    })
  }, 20_000)

  it('stops inflating at the limit, whether the archive declares the size or lies about it', () => {
    const zeros = new Uint8Array(MAX_CARD_INFLATED_BYTES + 1)
    const honest = Buffer.from(zipSync({ 'card.json': zeros }, { level: 9 }))
    const message = refusal(() => readZipEntries(honest, 'bomb.charx', new Set(['card.json']))).message
    expect(message).toBe(
      `bomb.charx: card.json inflates past ${MAX_CARD_INFLATED_BYTES} bytes (50 MiB), the limit for a card`,
    )
    // The same archive claiming, in its local header, that card.json is 10 bytes.
    const lying = Buffer.from(honest)
    lying.writeUInt32LE(10, 22)
    expect(refusal(() => readZipEntries(lying, 'bomb.charx', new Set(['card.json']))).message).toBe(message)
  }, 30_000)

  it('refuses damaged compressed data and a file that is no zip as bad files', () => {
    const good = Buffer.from(zipSync({ 'card.json': json(v3()) }, { level: 9 }))
    const damaged = Buffer.from(good)
    // card.json's data starts after the 30-byte local header and its 9-byte name.
    damaged.fill(0xff, 39, 60)
    expect(refusal(() => readCard(damaged, 'damaged.charx')).message).toMatch(
      /^damaged\.charx: card\.json holds damaged compressed data \(.+\)$/,
    )
    expect(refusal(() => readZipEntries(Buffer.from('plain text'), 'x.charx', new Set()))).toEqual({
      code: 'bad_file',
      message: 'x.charx: is not a zip archive',
    })
  })
})
