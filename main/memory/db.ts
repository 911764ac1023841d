import { openDatabase } from '../db/open'
import { memoryMigrations } from './migrations'
import { MemoryStore } from './store'

/** Opens (creating and migrating) one persona's `memory_<persona_id>.db`. */
export function openMemory(file: string, now?: () => number): MemoryStore {
  const { db } = openDatabase(file, { migrations: memoryMigrations, label: 'memory database' })
  return new MemoryStore(db, now)
}
