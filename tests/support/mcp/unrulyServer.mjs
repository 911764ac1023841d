// An MCP server (the official SDK, over stdio) that misbehaves on request, for the client's
// tests: it crashes mid-call, floods stderr, answers 50 MB, or never answers; and it tells
// whether it was given an environment variable (without showing its value). Its resources are
// binary: a picture, a PDF, text sent as a blob, and one too big to read whole.
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
// Resources whose parts are binary, as a file server or a screenshot tool offers them.
const DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const blob = (name, mimeType, bytes) =>
  server.registerResource(name, `unruly://${name}`, { mimeType }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType, blob: bytes().toString('base64') }],
  }))
blob('dot.png', 'image/png', () => Buffer.from(DOT_PNG, 'base64'))
blob('report.pdf', 'application/pdf', () => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3000, 1)]))
blob('notes.txt', 'text/plain', () => Buffer.from('Notes: buy milk'))
// 12 MiB: over what a stdio answer is read whole (10 MiB), under the attachment limit.
blob('big.bin', 'application/octet-stream', () => Buffer.alloc(12 * 1024 * 1024, 7))

server.registerTool(
  'argv',
  {
    description:
      'Says how it was started: each argument after its script, a long one by length and last four characters',
    inputSchema: {},
  },
  async () =>
    text(
      process.argv
        .slice(2)
        .map((a) => (a.length > 12 ? `${a.length} characters ending ${a.slice(-4)}` : a))
        .join(' | '),
    ),
)
server.registerTool('hang', { description: 'Never answers', inputSchema: {} }, () => new Promise(() => {}))

await server.connect(new StdioServerTransport())
