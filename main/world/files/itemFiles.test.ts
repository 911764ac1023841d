import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../../tests/support/tempHome'
import { writeFileAtomic } from '../../kernel/atomicWrite'
import { ITEM_FILE_NAME, itemFileName, summaryFileName } from './itemFileName'
import { ItemFiles } from './itemFiles'
import { pathInside, resolveItemPath } from './safePaths'

const home = useTempHome()
const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'

describe('item file names', () => {
  it('follow YYYYMMDD_HHMMSS_<uuid>.<ext>, with the summary beside them', () => {
    const name = itemFileName('txt', new Date(2025, 11, 4, 13, 0, 5), uuid)
    expect(name).toBe(`20251204_130005_${uuid}.txt`)
    expect(summaryFileName(name)).toBe(`20251204_130005_${uuid}.txt.summary.txt`)
    expect(ITEM_FILE_NAME.test(name) && ITEM_FILE_NAME.test(summaryFileName(name))).toBe(true)
    expect(() => itemFileName('../x')).toThrow(/bad file extension/)
  })
})

describe('path containment', () => {
  it('refuses separators, "..", foreign names and symlinks', () => {
    const dir = join(home(), 'documents')
    const ok = `20251204_130005_${uuid}.txt`
    expect(pathInside(dir, ok)).toBe(join(dir, ok))
    for (const bad of ['../loomverse.db', `../${ok}`, `sub/${ok}`, '..', 'notes.txt', `${ok}/..`, `..\\${ok}`])
      expect(() => pathInside(dir, bad), bad).toThrow(/not an item file name|would leave/)
    writeFileSync(join(home(), 'secret.txt'), 'secret')
    symlinkSync(join(home(), 'secret.txt'), join(dir, ok.replace('.txt', '.png').replace('130005', '130006')))
    expect(() => pathInside(dir, ok.replace('.txt', '.png').replace('130005', '130006'))).toThrow(/symbolic link/)
  })

  it('refuses FILE_PATHs outside image/ and documents/, and a folder that links out of the home', () => {
    expect(() => resolveItemPath(home(), '/etc/passwd')).toThrow(/not inside image\/ or documents\//)
    expect(() => resolveItemPath(home(), `documents/../${uuid}.txt`)).toThrow()
    expect(() => resolveItemPath(home(), `scenarios/20251204_130005_${uuid}.txt`)).toThrow()
    const outside = join(home(), '..', `outside-${uuid}`)
    mkdirSync(outside, { recursive: true })
    symlinkSync(outside, join(home(), 'image'))
    expect(() => resolveItemPath(home(), `image/20251204_130005_${uuid}.png`)).toThrow(/outside the data folder/)
  })

  it('writes and reads item files and their summaries inside the home', () => {
    const files = new ItemFiles(home())
    const path = files.create('documents', 'txt', '本文')
    expect(path).toMatch(/^documents\/\d{8}_\d{6}_[0-9a-f-]{36}\.txt$/)
    files.writeSummary(path, '要約')
    expect(files.readText(path)).toBe('本文')
    expect(files.readSummary(path)).toBe('要約')
    expect(readFileSync(join(home(), `${path}.summary.txt`), 'utf8')).toBe('要約')
  })
})

describe('atomic writes', () => {
  it('replaces the whole file and leaves no temp file behind', () => {
    const target = join(home(), 'a.txt')
    writeFileAtomic(target, 'old')
    writeFileAtomic(target, 'new content')
    expect(readFileSync(target, 'utf8')).toBe('new content')
    expect(readdirSync(home())).toEqual(['a.txt'])
  })

  it('leaves the target as it was and cleans up when the final rename fails', () => {
    const target = join(home(), 'dir-in-the-way')
    mkdirSync(target)
    writeFileSync(join(target, 'keep'), 'kept')
    expect(() => writeFileAtomic(target, 'data')).toThrow()
    expect(readFileSync(join(target, 'keep'), 'utf8')).toBe('kept')
    expect(readdirSync(home())).toEqual(['dir-in-the-way'])
    expect(existsSync(join(home(), 'nope', 'x'))).toBe(false)
  })
})
