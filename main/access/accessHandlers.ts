import type { accessMethods } from '@shared/contract'
import type { HandlerModule } from '../kernel/router'
import type { ApiTokens } from './apiTokens'

export function accessHandlers(tokens: ApiTokens): HandlerModule<typeof accessMethods> {
  return {
    api_token_create: (i) => tokens.create(i.name, i.mcp_writes === true),
    api_token_list: () => tokens.list(),
    api_token_revoke: (i) => tokens.revoke(i.id),
  }
}
