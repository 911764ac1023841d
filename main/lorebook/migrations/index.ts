import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createLorebooks } from './0001-create-lorebooks'

/** Lorebooks, their entries and links, and Author's Notes. Append a step; never edit a shipped one. */
export const lorebookSchema: DomainSchema = {
  domain: 'lorebook',
  needs: [],
  migrations: numbered([createLorebooks]),
}
