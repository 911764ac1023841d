import { openDatabase } from '../../db/open'
import { WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE } from '../../db/walCheckpoints'
import { memoryMigrations } from '../migrations'
import { MemoryStore } from './store'

/**
 * Opens (creating and migrating) one persona's `memory_<persona_id>.db`. `mainThread`: the
 * connection is the main thread's (its writes wait for a worker's in short steps), and when
 * `checkpointedElsewhere` the memory worker checkpoints its WAL (walCheckpoints.ts).
 */
export function openMemory(
  file: string,
  options: { now?: () => number; mainThread?: { checkpointedElsewhere: boolean } } = {},
): MemoryStore {
  const { mainThread } = options
  const { db } = openDatabase(file, {
    migrations: memoryMigrations,
    label: 'memory database',
    walBound: mainThread?.checkpointedElsewhere ? WAL_BOUND_WHEN_CHECKPOINTED_ELSEWHERE : undefined,
    shortBusyWaits: mainThread !== undefined,
  })
  return new MemoryStore(db, options.now)
}
