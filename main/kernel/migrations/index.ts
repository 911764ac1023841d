import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createJobs } from './0001-create-jobs'

/**
 * kernel's tables in the app database: the job runtime's table (`jobs`), which every domain's job handlers share. Oldest first; append, never edit a shipped
 * step. `legacy` is a step's number in the one list of earlier releases (a new step has none).
 */
export const kernelSchema: DomainSchema = {
  domain: 'kernel',
  needs: [],
  migrations: [{ version: 1, name: 'create-jobs', up: createJobs, legacy: 3 }],
}
