import type { DomainSchema } from '../../db/domainMigrations'
import { numbered } from '../../db/migrate'
import { step as createApiTokens } from './0001-create-api-tokens'
import { step as addApiTokenMcpWrites } from './0002-add-api-token-mcp-writes'

/** The API tokens of other programs. Append a step; never edit a shipped one. */
export const accessSchema: DomainSchema = {
  domain: 'access',
  needs: [],
  migrations: numbered([createApiTokens, addApiTokenMcpWrites]),
}
