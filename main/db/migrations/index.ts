import type { Migration } from '../migrate'
import { migrate as createSettings } from './0001-create-settings'
import { migrate as createGraph } from './0002-create-graph'

/** The schema history of `loomverse.db`, oldest first. Append; never edit a shipped step. */
export const appMigrations: readonly Migration[] = [
  { version: 1, name: 'create-settings', up: createSettings },
  { version: 2, name: 'create-graph', up: createGraph },
]
