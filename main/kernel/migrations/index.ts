import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createJobs } from './0001-create-jobs'

/**
 * The job runtime's table (`jobs`), shared by every domain's job handlers. Append a step; never
 * edit a shipped one.
 */
export const kernelSchema: DomainSchema = {
  domain: 'kernel',
  needs: [],
  migrations: numbered([createJobs]),
}
