import { z } from 'zod'
import { DisplayName } from './names'
import type { MethodSpecs } from './spec'

// Programs connected to the local HTTP API (seed 004): each has its own token, made and revoked
// by the user in Settings → Connected programs. These methods are for windows; the HTTP API
// itself never reaches them.

const TokenId = z.string().uuid()

export const ApiToken = z.object({
  id: TokenId,
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  calls: z.number().int().nonnegative(),
  revoked: z.boolean(),
  /** May change things through the memory server at /api/mcp (notify); otherwise it only reads there. */
  mcp_writes: z.boolean(),
})
export type ApiToken = z.infer<typeof ApiToken>

export const accessMethods = {
  /** Makes a token for a program; `token` is in this answer only — it is stored hashed. */
  api_token_create: {
    input: z.object({ name: DisplayName(100), mcp_writes: z.boolean().optional() }).strict(),
    output: ApiToken.extend({ token: z.string() }),
  },
  api_token_list: { input: z.object({}).strict(), output: z.array(ApiToken) },
  /** The program's next request is refused; the entry stays listed as revoked. */
  api_token_revoke: { input: z.object({ id: TokenId }).strict(), output: ApiToken },
} as const satisfies MethodSpecs
