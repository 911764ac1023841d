import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { appSchema } from '../../main/appSchema'
import { openDatabase, type Db } from '../../main/db/open'

/**
 * One database file in a temporary folder, opened twice by `open`: the first for the app, the
 * second for what another process writes (the CLI, a worker), whose commits the first sees only
 * through the database. Closed and removed after each test.
 */
export function useTwoOpenings<T>(fileName: string, open: (file: string) => T, close: (opened: T) => void) {
  let dir: string | null = null
  const opened: T[] = []
  afterEach(() => {
    for (const o of opened.splice(0)) close(o)
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = null
  })
  return (): [T, T] => {
    dir = mkdtempSync(join(tmpdir(), 'loomverse-two-connections-'))
    const file = join(dir, fileName)
    const pair: [T, T] = [open(file), open(file)]
    opened.push(...pair)
    return pair
  }
}

/** A migrated `loomverse.db` opened twice: `db` for the app, `other` for another process. */
export function useTwoConnections(): () => { db: Db; other: Db } {
  const twice = useTwoOpenings(
    'loomverse.db',
    (file) => openDatabase(file, { domains: appSchema, label: 'loomverse.db' }).db,
    (db) => db.close(),
  )
  return () => {
    const [db, other] = twice()
    return { db, other }
  }
}

/** A turn written as `loomverse create-node` would, from its own process: a node, its place in the flow and its parent's connection; its id. */
export function writeTurnElsewhere(other: Db, flowId: string, parentId: string, index: number): string {
  const id = randomUUID()
  other
    .transaction(() => {
      other
        .prepare(
          `INSERT INTO nodes (id, timestamp, prompt, response, model) VALUES (?, '2025-01-01T00:00:00.000Z', 'from the cli', '', '')`,
        )
        .run(id)
      other.prepare('INSERT INTO flow_nodes (flow_id, node_id, idx) VALUES (?, ?, ?)').run(flowId, id, index)
      other
        .prepare('INSERT INTO connections (flow_id, source_id, target_id) VALUES (?, ?, ?)')
        .run(flowId, parentId, id)
    })
    .immediate()
  return id
}
