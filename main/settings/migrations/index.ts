import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createSettings } from './0001-create-settings'

/** The settings table. Append a step; never edit a shipped one. */
export const settingsSchema: DomainSchema = {
  domain: 'settings',
  needs: [],
  migrations: numbered([createSettings]),
}
