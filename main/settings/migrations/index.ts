import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createSettings } from './0001-create-settings'

/**
 * settings's tables in the app database: the settings table. Oldest first; append, never edit a shipped
 * step. `legacy` is a step's number in the one list of earlier releases (a new step has none).
 */
export const settingsSchema: DomainSchema = {
  domain: 'settings',
  needs: [],
  migrations: [{ version: 1, name: 'create-settings', up: createSettings, legacy: 1 }],
}
