import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { importLines } from '../../main/memory/import/importer'
import { openMemory } from '../../main/memory/store/db'
import type { MemoryStore } from '../../main/memory/store/store'

/**
 * Memory databases on disk, closed and removed after each test. Given a file, another
 * connection to that database: the memory worker's, or another process's.
 */
export function useMemoryFiles(): (file?: string) => MemoryStore {
  const open: MemoryStore[] = []
  const dirs: string[] = []
  afterEach(() => {
    for (const s of open.splice(0)) s.db.close()
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  return (file) => {
    if (!file) {
      const dir = mkdtempSync(join(tmpdir(), 'loomverse-memory-'))
      dirs.push(dir)
      file = join(dir, 'memory_p1.db')
    }
    const store = openMemory(file)
    open.push(store)
    return store
  }
}

/**
 * `speaker: text` turns imported into `store` as one chat log (ids t1, t2, …), `apartSeconds`
 * apart from 8 May 2023.
 */
export function importTurns(store: MemoryStore, turns: ReadonlyArray<readonly [string, string]>, apartSeconds: number) {
  const start = Date.UTC(2023, 4, 8) / 1000
  const lines = turns.map(([speaker, text], i) =>
    JSON.stringify({ id: `t${i + 1}`, speaker, text, time: start + i * apartSeconds }),
  )
  importLines(store, lines.join('\n'))
  return store
}
