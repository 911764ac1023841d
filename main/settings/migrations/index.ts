import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createSettings } from './0001-create-settings'

/** The settings table. Append a step; never edit a shipped one. */
export const settingsSchema: DomainSchema = {
  domain: 'settings',
  needs: [],
  migrations: [{ version: 1, name: 'create-settings', up: createSettings, legacy: 1 }],
}
