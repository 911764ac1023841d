import type { MemoryStore } from '../../main/memory/store/store'

/**
 * What the next of a test's random writes to one memory opened twice needs: the connection
 * that makes it (either, as the app and the memory worker both write), a unit that exists now
 * (undefined when there is none), and a roll in [0, 1) that picks the kind of write.
 */
export function nextWrite(
  next: () => number,
  [app, worker]: readonly [MemoryStore, MemoryStore],
): { by: MemoryStore; id: number | undefined; roll: number } {
  const by = next() < 0.5 ? app : worker
  const ids = app.db.prepare('SELECT id FROM units').pluck().all() as number[]
  const id = ids[Math.floor(next() * ids.length)]
  return { by, id, roll: next() }
}
