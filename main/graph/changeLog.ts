import { LogReader, type ChangeLogSource } from '../kernel/changeLogReader'

/**
 * The change logs triggers write (app migrations 24 to 26): a connection into a node added,
 * removed, moved or named (`connection_changes`, by its target), a node joining, leaving,
 * moving in or pinned in a flow (`member_changes`), a node's prompt, reply or summary written
 * (`node_changes`). Writes from any connection are logged — the CLI, the job worker — so what
 * the graph keeps (ancestry.ts, flowShapes.ts, ancestorLines.ts) can follow them.
 */
export type ChangeLogName = 'connection_changes' | 'member_changes' | 'node_changes'

/** One logged change: the flow (empty in `node_changes`: a node's text is the same in every flow), and the node it touched (a connection's target). */
export interface Change {
  seq: number
  flow_id: string
  node_id: string
}

/** One reader of one of the graph's change logs (kernel/changeLogReader.ts). */
export class ChangeLogReader extends LogReader<Change> {
  constructor(store: { changeLog(log: ChangeLogName): ChangeLogSource<Change> }, log: ChangeLogName) {
    super(store.changeLog(log))
  }
}
