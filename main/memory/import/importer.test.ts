import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useMemoryFiles } from '../../../tests/support/memoryFiles'
import { readChatLog } from './chatLogFile'
import { importRowsInSteps } from './importer'
import type { SourceRow } from './importSources'

const memory = useMemoryFiles()

const line = (i: number) =>
  JSON.stringify({
    id: `m${i}`,
    speaker: i % 2 ? 'Mika' : 'User',
    text: `message number ${i}`,
    time: 1_700_000_000 + i,
  })

describe('importing a chat log in steps', () => {
  it('streams a file: rows are read as they are written, a step at a time, with progress up to the total', async () => {
    const store = memory()
    const file = join(dirname(store.db.name), 'log.jsonl')
    const n = 1_000
    writeFileSync(file, Array.from({ length: n }, (_, i) => line(i)).join('\n'))
    const log = await readChatLog({ path: file, name: 'log.jsonl' }, 0)
    expect(log.total).toBe(n)
    let pulled = 0
    const counted = async function* (rows: AsyncIterable<SourceRow | null>) {
      for await (const row of rows) {
        pulled++
        yield row
      }
    }
    const seen: Array<{ done: number; pulled: number; stored: number }> = []
    const count = store.prepare('SELECT count(*) FROM units').pluck()
    const result = await importRowsInSteps(store, counted(log.rows), {
      total: log.total,
      rowsPerStep: 64,
      onProgress: (done) => seen.push({ done, pulled, stored: count.get() as number }),
    })
    expect(result.imported).toBe(n)
    expect(seen.at(-1)!.done).toBe(n)
    for (const [i, s] of seen.entries()) {
      // Each step is written before the next is read: never more than a step held in memory.
      expect(s.pulled - (seen[i - 1]?.pulled ?? 0)).toBeLessThanOrEqual(64)
      expect(s.stored).toBe(s.pulled)
      if (i > 0) expect(s.done).toBeGreaterThan(seen[i - 1]!.done)
    }
    expect(seen.length).toBe(Math.ceil(n / 64))
  })
})
