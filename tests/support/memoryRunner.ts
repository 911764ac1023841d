import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { QueueOptions } from '../../main/kernel/jobs/jobQueue'
import { LlmRegistry } from '../../main/llm/providers'
import { openMemory } from '../../main/memory/store/db'
import { MemoryJobRunner } from '../../main/memory/jobs/runner'
import type { MemoryStore } from '../../main/memory/store/store'
import { startFakeLlm, type FakeLlm } from './fakeLlm'

export interface MemoryRunnerHarness {
  store: MemoryStore
  fake: FakeLlm
  runner: MemoryJobRunner
}

/**
 * One persona's memory database on a real SQLite file, its job runner, and a fake OpenAI-compatible
 * server over real HTTP as the models; everything is closed and removed after each test.
 */
export function useMemoryRunner(
  defaults: { queue?: QueueOptions; now?: () => number } = {},
): (queue?: QueueOptions) => Promise<MemoryRunnerHarness> {
  const cleanup: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c()
  })
  return async (queue = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'loomverse-memory-'))
    const store = openMemory(join(dir, 'memory_p.db'), { now: defaults.now })
    const fake = await startFakeLlm()
    cleanup.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => void store.db.close(),
      () => fake.close(),
    )
    const llm = new LlmRegistry(new Map([['openai', { id: 'openai', baseURL: `${fake.url}/v1`, apiKey: 'sk-test' }]]))
    return { store, fake, runner: new MemoryJobRunner(store, llm, { backoffSeconds: 0, ...defaults.queue, ...queue }) }
  }
}
