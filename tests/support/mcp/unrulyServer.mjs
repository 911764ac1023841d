// An MCP server (the official SDK, over stdio) that misbehaves on request, for the client's
// tests: it crashes mid-call, floods stderr, answers 50 MB, or never answers; and it tells
// whether it was given an environment variable (without showing its value).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'unruly', version: '1.0.0' })
const text = (t) => ({ content: [{ type: 'text', text: t }] })

server.registerTool('crash', { description: 'Exits in the middle of the call', inputSchema: {} }, async () => {
  process.stderr.write('about to crash\n')
  process.exit(3)
})
server.registerTool(
  'flood',
  { description: 'Writes many lines to stderr, then answers', inputSchema: { lines: z.number().int() } },
  async ({ lines }) => {
    const line = 'x'.repeat(200) + '\n'
    for (let i = 0; i < lines; i++) process.stderr.write(line)
    return text(`flooded ${lines} lines`)
  },
)
server.registerTool(
  'huge',
  { description: 'Answers a text of the given megabytes', inputSchema: { megabytes: z.number() } },
  async ({ megabytes }) => text('y'.repeat(Math.round(megabytes * 1024 * 1024))),
)
server.registerTool(
  'env',
  {
    description: 'Says whether an environment variable is set, its length and last four characters',
    inputSchema: { name: z.string() },
  },
  async ({ name }) => {
    const value = process.env[name]
    return text(
      value === undefined
        ? `${name} is not set`
        : `${name} is set: ${value.length} characters ending ${value.slice(-4)}`,
    )
  },
)
server.registerTool('hang', { description: 'Never answers', inputSchema: {} }, () => new Promise(() => {}))

await server.connect(new StdioServerTransport())
