import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createLorebooks } from './0001-create-lorebooks'

/**
 * lorebook's tables in the app database: lorebooks, their entries and links, and Author's Notes. Oldest first; append, never edit a shipped
 * step. `legacy` is a step's number in the one list of earlier releases (a new step has none).
 */
export const lorebookSchema: DomainSchema = {
  domain: 'lorebook',
  needs: [],
  migrations: [{ version: 1, name: 'create-lorebooks', up: createLorebooks, legacy: 33 }],
}
