import { join, resolve } from 'node:path'
import type { McpServerConfig } from '@shared/contract'

// The MCP servers the tests start (unit tests and e2e alike): kept apart from the core's test
// harness so the e2e specs can name them without compiling the main process.

const repoRoot = resolve(import.meta.dirname, '../../..')

/** The reference everything server and our misbehaving one, as mcp.json names them. */
export const testServers = {
  everything: {
    command: process.execPath,
    args: [join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  },
  unruly: { command: process.execPath, args: [join(repoRoot, 'tests/support/mcp/unrulyServer.mjs')] },
} satisfies Record<string, McpServerConfig>
