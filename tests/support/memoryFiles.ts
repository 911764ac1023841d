import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
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
