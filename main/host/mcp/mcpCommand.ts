import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { appendRegularFile } from '../../kernel/appendFile'
import { homePaths } from '../../kernel/home'
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
  const logFile = mcpServerLog(options.home)
  const logCall = (line: string) => {
    const stamped = `${new Date().toISOString()} ${line}`
    options.err(`[mcp] ${line}`)
    try {
      appendRegularFile(logFile, stamped + '\n', 'logs/mcp-server.log')
    } catch (e) {
      options.err(`[mcp] could not write the call log: ${(e as Error).message}`)
    }
  }
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

/** `<home>/logs/mcp-server.log`: every call other agents made, one line each. */
export function mcpServerLog(home: string): string {
  const dir = join(homePaths(home).home, 'logs')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return join(dir, 'mcp-server.log')
}
