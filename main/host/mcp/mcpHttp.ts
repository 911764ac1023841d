import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { AppError } from '@shared/errors'
import type { Core } from '../../core'
import type { McpEndpoint } from '../httpApi'
import { matchPersona } from '../../persona/personaRef'
import { openCore } from './lazyCore'
import { call, memoryServer } from './mcpServer'

export interface MemoryOverHttpOptions {
  core: Core
  /** `serve --mcp-allow-writes`: offer notify to every API token, not only to those made to write. */
  allowWrites: boolean
  logCall: (line: string) => void
}

/**
 * `loomverse mcp` over Streamable HTTP at `/api/mcp`, for agents that take a URL. Stateless: each
 * POST gets a server of its own, so nothing is kept between requests and a revoked token is
 * refused on its very next call, and a token's right to write is read on each. `?persona=NAME_OR_ID` makes it that persona's alone, as
 * `--persona` does for stdio; the call log names the API token each call came with.
 */
export function memoryOverHttp(options: MemoryOverHttpOptions): McpEndpoint {
  const cores = openCore(options.core)
  return async (req, res, body, token) => {
    const ref = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('persona')
    const personaId = ref === null ? null : await personaIdOf(options.core, ref)
    const server = memoryServer({
      cores,
      personaId,
      allowWrites: options.allowWrites || token.mcp_writes,
      logCall: (line) => options.logCall(`"${token.name}": ${line}`),
    })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res, body)
  }
}

async function personaIdOf(core: Core, ref: string): Promise<string> {
  const personas = await call(core, 'list_personas', {})
  try {
    return matchPersona(personas, ref).id
  } catch (e) {
    throw new AppError('not_found', `?persona=: ${(e as Error).message}`)
  }
}
