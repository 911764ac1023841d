import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writeFiles, type FileToWrite } from './fileWriter'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function root(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-writer-'))
  roots.push(dir)
  return dir
}

describe('file writer', () => {
  it('writes every file, creating folders, from a generator', async () => {
    const dir = root()
    function* files(): Generator<FileToWrite> {
      for (let i = 0; i < 600; i++) yield { path: `f${i % 7}/${i}.txt`, content: `#${i} 日本語\r\n` }
    }
    await writeFiles(dir, files())
    expect(readFileSync(join(dir, 'f4/599.txt'), 'utf8')).toBe('#599 日本語\r\n')
    expect(readFileSync(join(dir, 'f0/0.txt'), 'utf8')).toBe('#0 日本語\r\n')
  })

  it('rejects with the first write error, as fs reports it', async () => {
    const dir = root()
    const files = [
      { path: 'a/x.txt', content: 'file' },
      { path: 'a/x.txt/y.txt', content: 'under a file' },
    ]
    await expect(writeFiles(dir, files)).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTDIR|EEXIST|EISDIR)$/),
    })
  })

  it('rejects with an error thrown while rendering', async () => {
    function* files(): Generator<FileToWrite> {
      yield { path: 'a.txt', content: 'a' }
      throw new Error('render failed')
    }
    await expect(writeFiles(root(), files())).rejects.toThrow('render failed')
  })
})
