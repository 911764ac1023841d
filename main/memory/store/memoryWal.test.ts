import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { useLlmCore } from '../../../tests/support/llmCore'

const start = useLlmCore()

// A memory's pages reach its database file only when its WAL is checkpointed. The main
// thread's connection leaves that to the memory worker (db/walCheckpoints.ts), so the worker
// must keep every memory the app has open, not only those with a job due.
describe("a persona's memory WAL, checkpointed by the memory worker", () => {
  it('reaches the database file while no job of its is due', async () => {
    const h = await start()
    const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
    const file = join(h.core.paths.memory, `memory_${persona.id}.db`)
    // ~1.2 MB of memories, ~17 MB written with their indexes: past SQLite's own 1,000-page
    // checkpoint, below the main thread's bound, so only the worker can have moved them.
    const text = 'The lighthouse keeper counted the boats coming in at dusk. '.repeat(330)
    const add = (i: number) =>
      h.call('memory_add_unit', { persona_id: persona.id, kind: 'fact', text: `${i}: ${text}` })
    await add(0)
    const before = statSync(file).size
    for (let i = 1; i < 60; i++) await add(i)
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 2_000_000), {
      timeout: 20_000,
      interval: 50,
    })
    // Facts written by hand queue no job: nothing else woke the worker for this memory.
    const jobs = await h.call<{ jobs: unknown[] }>('memory_list_jobs', { persona_id: persona.id })
    expect(jobs.jobs).toEqual([])
  }, 60_000)
})
