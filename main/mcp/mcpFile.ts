import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { McpServerConfig, McpServerName } from '@shared/contract'
import { AppError } from '@shared/errors'
import { writeFileAtomic } from '../kernel/atomicWrite'

/**
 * `<home>/mcp.json` in the `mcpServers` format of Claude Desktop, Cursor and LM Studio, so a
 * user's file from one of them works as it is. Keys this app does not know (at the top and in
 * each server) are kept when the file is written back.
 */
export interface McpFile {
  servers: Map<string, McpServerConfig>
  /** Everything else the file held at its top level. */
  rest: Record<string, unknown>
}

export class McpFileError extends Error {}

export function mcpFilePath(home: string): string {
  return join(home, 'mcp.json')
}

/**
 * Browser mode's secrets of mcp.json (no keychain there): plain, owner-only, left out of backups
 * and exports (backup/homeInventory).
 */
export function mcpSecretsPath(home: string): string {
  return join(home, 'mcp-secrets.json')
}

/** Reads the file; none is an empty list. A file that cannot be read throws McpFileError naming the line. */
export function readMcpFile(path: string): McpFile {
  if (!existsSync(path)) return { servers: new Map(), rest: {} }
  return parseMcpText(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), 'mcp.json')
}

/** Parses an mcpServers document; `name` says which file in the error. */
export function parseMcpText(text: string, name: string): McpFile {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    const message = (e as Error).message
    const at = /position (\d+)/.exec(message)
    // "Unexpected end of JSON input" names no position: the file ends too soon, on its last line.
    const position = at ? Number(at[1]) : /end of JSON/.test(message) ? text.trimEnd().length : null
    const where = position === null ? '' : `line ${lineOf(text, position)}: `
    throw new McpFileError(`${name}: ${where}${message.replace(/ in JSON at position \d+.*$/, '')}`)
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new McpFileError(`${name}: line 1: must be an object with "mcpServers"`)
  const { mcpServers, ...rest } = raw as Record<string, unknown>
  const servers = new Map<string, McpServerConfig>()
  if (mcpServers === undefined) return { servers, rest }
  if (!mcpServers || typeof mcpServers !== 'object' || Array.isArray(mcpServers))
    throw new McpFileError(`${name}: line ${keyLine(text, 'mcpServers')}: "mcpServers" must be an object`)
  for (const [key, value] of Object.entries(mcpServers)) {
    const line = keyLine(text, key)
    const nameOk = McpServerName.safeParse(key)
    if (!nameOk.success)
      throw new McpFileError(`${name}: line ${line}: server "${key}": ${nameOk.error.issues[0]!.message}`)
    const parsed = McpServerConfig.safeParse(value)
    if (!parsed.success) {
      throw new McpFileError(
        `${name}: line ${line}: server "${key}" needs "command" (a program run over stdio) or "url" ` +
          `(a Streamable HTTP address): ${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`)[0]}`,
      )
    }
    servers.set(key, parsed.data)
  }
  return { servers, rest }
}

/** Written whole or not at all, so a crash or an update never leaves half a file. */
export function writeMcpFile(path: string, file: McpFile): void {
  const doc = { ...file.rest, mcpServers: Object.fromEntries(file.servers) }
  writeFileAtomic(path, JSON.stringify(doc, null, 2) + '\n')
}

/** A file that cannot be read is left for the user to fix; nothing overwrites it meanwhile. */
export function refuseWhileBroken(error: string | null): void {
  if (error)
    throw new AppError('conflict', `fix mcp.json first (it is kept as it is): ${error}`, {
      key: 'mcp_file_broken',
      params: { error },
    })
}

function lineOf(text: string, position: number): number {
  return text.slice(0, position).split('\n').length
}

/** The line of the first `"key":` in the text (1 when it is not found). */
function keyLine(text: string, key: string): number {
  const at = text.indexOf(`${JSON.stringify(key)}`)
  return at < 0 ? 1 : lineOf(text, at)
}
