import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { z } from 'zod'
import type { McpHttpConfig, McpServerConfig } from '@shared/contract'
import { version } from '../../package.json'
import { CappedReadBuffer, CUT_META_KEY, type CutMeta } from './mcpReadBuffer'

// The only file that speaks to the MCP SDK as a client: the rest of the app sees McpConnection,
// so the SDK's v2 client can replace this one file.

export interface McpTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

/** A tool's answer as the SDK gives it: content blocks, maybe structured content, maybe an error. */
export interface McpRawResult {
  content: Array<Record<string, unknown>>
  structuredContent?: unknown
  isError?: boolean
  /** The reader's mark on a message it cut (mcpReadBuffer's CUT_META_KEY), among the server's own. */
  _meta?: Record<string, unknown>
}

export interface McpResource {
  uri: string
  name: string
  description?: string
  mimeType?: string
}

export interface McpPrompt {
  name: string
  description?: string
  arguments: Array<{ name: string; description?: string; required?: boolean }>
}

/** A resource's contents: each part text, or a blob (base64) with its type. */
export type McpResourceContents = Array<{ uri: string; mimeType?: string; text?: string; blob?: string }>

/** A resource as read: its parts, or none and the reader's note that the answer was too big to read whole. */
export interface McpResourceRead {
  contents: McpResourceContents
  cut: CutMeta | null
}

/**
 * resources/read's answer, or the stand-in the capped reader makes of one too big to read
 * whole (no contents, a cut mark): the SDK's own schema would refuse that with a parse error
 * that says nothing of the size.
 */
const ResourceReadAnswer = z.looseObject({
  contents: z
    .array(
      z.looseObject({
        uri: z.string(),
        mimeType: z.string().optional(),
        text: z.string().optional(),
        blob: z.string().optional(),
      }),
    )
    .optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
})

export interface McpConnection {
  tools: McpTool[]
  /** The server's resources (none when it offers none). */
  listResources(timeoutMs: number): Promise<McpResource[]>
  readResource(uri: string, timeoutMs: number): Promise<McpResourceRead>
  listPrompts(timeoutMs: number): Promise<McpPrompt[]>
  /** The prompt's messages with the arguments filled in. */
  getPrompt(
    name: string,
    args: Record<string, string>,
    timeoutMs: number,
  ): Promise<Array<{ role: string; content: Record<string, unknown> }>>
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpRawResult>
  close(): Promise<void>
}

export interface ConnectOptions {
  /** Where a stdio server runs when its config names no cwd. */
  cwd: string
  /** Each line the server writes to stderr, and what the connection does. */
  log: (line: string) => void
  /** Called once when the connection ends without close() being called (a crash, a dropped stream). */
  onLost: (reason: string) => void
  timeoutMs: number
}

export async function connectMcp(config: McpServerConfig, options: ConnectOptions): Promise<McpConnection> {
  const transport = transportFor(config, options)
  const client = new Client({ name: 'loomverse', version })
  let closing = false
  client.onclose = () => {
    if (!closing) options.onLost('the server closed the connection')
  }
  client.onerror = (e) => options.log(`error: ${e.message}`)
  try {
    await client.connect(transport, { timeout: options.timeoutMs })
    const tools: McpTool[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: options.timeoutMs })
      for (const t of page.tools)
        tools.push({
          name: t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema as Record<string, unknown>,
        })
      cursor = page.nextCursor
    } while (cursor)
    const caps = client.getServerCapabilities() ?? {}
    return {
      tools,
      listResources: async (timeout) => {
        if (!caps.resources) return []
        return allPages(async (cursor) => {
          const page = await client.listResources(cursor ? { cursor } : undefined, { timeout })
          const items = page.resources.map((r) => ({
            uri: r.uri,
            name: r.name,
            description: r.description,
            mimeType: r.mimeType,
          }))
          return { items, next: page.nextCursor }
        })
      },
      readResource: async (uri, timeout) => {
        const answer = await client.request({ method: 'resources/read', params: { uri } }, ResourceReadAnswer, {
          timeout,
        })
        return { contents: answer.contents ?? [], cut: (answer._meta?.[CUT_META_KEY] as CutMeta | undefined) ?? null }
      },
      listPrompts: async (timeout) => {
        if (!caps.prompts) return []
        return allPages(async (cursor) => {
          const page = await client.listPrompts(cursor ? { cursor } : undefined, { timeout })
          const items = page.prompts.map((p) => ({
            name: p.name,
            description: p.description,
            arguments: p.arguments ?? [],
          }))
          return { items, next: page.nextCursor }
        })
      },
      getPrompt: async (name, args, timeout) =>
        (await client.getPrompt({ name, arguments: args }, { timeout })).messages as Array<{
          role: string
          content: Record<string, unknown>
        }>,
      callTool: async (name, args, { signal, timeoutMs }) =>
        (await client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
        })) as McpRawResult,
      close: async () => {
        closing = true
        await client.close()
      },
    }
  } catch (e) {
    closing = true
    await client.close().catch(() => {})
    throw e
  }
}

/** Every page of a list the server hands out in pages, up to a thousand items. */
async function allPages<T>(page: (cursor?: string) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
  const all: T[] = []
  let cursor: string | undefined
  do {
    const got = await page(cursor)
    all.push(...got.items)
    cursor = got.next
  } while (cursor && all.length < 1000)
  return all
}

function transportFor(config: McpServerConfig, options: ConnectOptions): Transport {
  if (isHttp(config)) {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: config.headers ?? {} },
    })
  }
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    // The SDK's safe minimum (PATH, HOME…), then the server's own: never the app's keys.
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd ?? options.cwd,
    stderr: 'pipe',
  })
  useCappedReader(transport)
  let partial = ''
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n')
    partial = lines.pop() ?? ''
    // A runaway line is cut: the log keeps a bounded number of bounded lines.
    if (partial.length > 4000) partial = partial.slice(0, 4000)
    for (const line of lines) options.log(line.slice(0, 4000))
  })
  return transport
}

export function isHttp(config: McpServerConfig): config is McpHttpConfig {
  return typeof (config as { url?: unknown }).url === 'string'
}

/**
 * The SDK's stdio reader refuses a message over 10 MiB and ends the connection; ours reads any
 * size in bounded memory and cuts what is too large (mcpReadBuffer). The SDK offers no option
 * for this, so its private reader is replaced; the check makes an SDK that renamed it fail
 * loudly in the tests rather than quietly keep its own.
 */
function useCappedReader(transport: StdioClientTransport): void {
  const inner = transport as unknown as { _readBuffer?: unknown }
  if (!inner._readBuffer) throw new Error('the MCP SDK changed its stdio reader: see mcpReadBuffer.ts')
  inner._readBuffer = new CappedReadBuffer()
}
