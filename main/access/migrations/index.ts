import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createApiTokens } from './0001-create-api-tokens'
import { migrate as addApiTokenMcpWrites } from './0002-add-api-token-mcp-writes'

/**
 * access's tables in the app database: the API tokens of other programs. Oldest first; append, never edit a shipped
 * step. `legacy` is a step's number in the one list of earlier releases (a new step has none).
 */
export const accessSchema: DomainSchema = {
  domain: 'access',
  needs: [],
  migrations: [
    { version: 1, name: 'create-api-tokens', up: createApiTokens, legacy: 17 },
    { version: 2, name: 'add-api-token-mcp-writes', up: addApiTokenMcpWrites, legacy: 38 },
  ],
}
