import { openDatabase } from '../db/open'
import { WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE } from '../db/walCheckpoints'
import { memoryMigrations } from './migrations'
import { MemoryStore } from './store'

/**
 * Opens (creating and migrating) one persona's `memory_<persona_id>.db`. `checkpointedElsewhere`:
 * the memory worker checkpoints it (walCheckpoints.ts), so this connection's writes need not.
 */
export function openMemory(
  file: string,
  options: { now?: () => number; checkpointedElsewhere?: boolean } = {},
): MemoryStore {
  const { db } = openDatabase(file, {
    migrations: memoryMigrations,
    label: 'memory database',
    walBound: options.checkpointedElsewhere ? WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE : undefined,
  })
  return new MemoryStore(db, options.now)
}
