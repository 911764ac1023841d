import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { mcpCallLog } from './callLog'
import { LazyCore, openCoreFor } from './lazyCore'
import { memoryServer } from './mcpServer'

export interface McpCommandOptions {
  home: string
  personaId: string | null
  allowWrites: boolean
  /** Standard error: stdout carries the protocol, so nothing else may be printed there. */
  err: (line: string) => void
  /** Resolves on Ctrl+C or SIGTERM. */
  untilStopped: () => Promise<void>
}

/** Serves MCP over this process's stdin/stdout until the client closes stdin or a signal stops it. */
export async function runMcpServer(options: McpCommandOptions): Promise<void> {
  const logCall = mcpCallLog(options.home, options.err)
  const cores = new LazyCore(openCoreFor(options.home, options.err))
  const server = memoryServer({ cores, personaId: options.personaId, allowWrites: options.allowWrites, logCall })
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve)
    process.stdin.once('close', resolve)
  })
  await server.connect(new StdioServerTransport())
  logCall(
    `serving ${options.personaId ? `persona ${options.personaId}` : 'every persona'}` +
      (options.allowWrites ? ', writes allowed' : ', read-only'),
  )
  await Promise.race([closed, options.untilStopped()])
  await server.close()
  await cores.dispose()
}
