import type { DomainSchema } from '../../db/domainMigrations'
import { migrate as createApiTokens } from './0001-create-api-tokens'
import { migrate as addApiTokenMcpWrites } from './0002-add-api-token-mcp-writes'

/** The API tokens of other programs. Append a step; never edit a shipped one. */
export const accessSchema: DomainSchema = {
  domain: 'access',
  needs: [],
  migrations: [
    { version: 1, name: 'create-api-tokens', up: createApiTokens, legacy: 17 },
    { version: 2, name: 'add-api-token-mcp-writes', up: addApiTokenMcpWrites, legacy: 38 },
  ],
}
