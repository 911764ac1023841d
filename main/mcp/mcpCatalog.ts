import type { McpPromptInfo, McpResourceInfo, McpResourceRead } from '@shared/contract'
import { AppError } from '@shared/errors'
import { KEPT_TEXT_LIMIT } from './mcpResult'
import type { McpServers } from './mcpServers'
import { resourceParts } from './resourceParts'

/** Listing or reading one server's resources or prompts. */
const CATALOG_TIMEOUT_MS = 30_000

/**
 * What MCP servers offer besides tools: resources the user attaches to a message like a file,
 * and prompts the user runs as commands. Only servers already connected are asked unless
 * `start` (the dialog that lists them may start the enabled ones; the palette never does).
 */
export class McpCatalog {
  constructor(private readonly servers: McpServers) {}

  async resources(start: boolean): Promise<McpResourceInfo[]> {
    const lists = await this.fromEach(start, async (server, conn) =>
      (await conn.listResources(CATALOG_TIMEOUT_MS)).map((r) => ({
        server,
        uri: r.uri,
        name: r.name,
        ...(r.description ? { description: r.description } : {}),
        ...(r.mimeType ? { mime: r.mimeType } : {}),
      })),
    )
    return lists.flat()
  }

  async prompts(start: boolean): Promise<McpPromptInfo[]> {
    const lists = await this.fromEach(start, async (server, conn) =>
      (await conn.listPrompts(CATALOG_TIMEOUT_MS)).map((p) => ({
        server,
        name: p.name,
        ...(p.description ? { description: p.description } : {}),
        arguments: p.arguments.map((a) => ({
          name: a.name,
          ...(a.description ? { description: a.description } : {}),
          required: a.required === true,
        })),
      })),
    )
    return lists.flat()
  }

  /** A resource's parts to attach to a message: its text, its pictures, its other files named (resourceParts). */
  async read(server: string, uri: string): Promise<McpResourceRead> {
    const conn = await this.servers.connection(server)
    return resourceParts(uri, await conn.readResource(uri, CATALOG_TIMEOUT_MS))
  }

  /** The prompt's messages as one text for the composer (what the user then sends or edits). */
  async prompt(server: string, name: string, args: Record<string, string>): Promise<{ text: string }> {
    const conn = await this.servers.connection(server)
    const messages = await conn.getPrompt(name, args, CATALOG_TIMEOUT_MS)
    const parts = messages.map((m) => {
      const c = m.content
      if (c.type === 'text' && typeof c.text === 'string') return c.text
      const r = c.resource as { text?: unknown; uri?: unknown } | undefined
      if (c.type === 'resource' && r && typeof r.text === 'string') return r.text
      return `[${String(c.type)}${r && typeof r.uri === 'string' ? `: ${r.uri}` : ''}]`
    })
    const text = parts.join('\n\n').slice(0, KEPT_TEXT_LIMIT)
    if (!text.trim()) throw new AppError('unavailable', `the prompt "${name}" of "${server}" gave no text`)
    return { text }
  }

  private async fromEach<T>(
    start: boolean,
    read: (server: string, conn: Awaited<ReturnType<McpServers['connection']>>) => Promise<T[]>,
  ): Promise<T[][]> {
    const list = start ? await this.servers.listStarted() : this.servers.list()
    return Promise.all(
      list.servers
        .filter((s) => s.status === 'connected')
        .map(async (s) => {
          try {
            return await read(s.name, await this.servers.connection(s.name))
          } catch {
            return [] // that server's trouble shows in its status and log
          }
        }),
    )
  }
}
