import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { appendRegularFile } from '../../kernel/appendFile'
import { homePaths } from '../../kernel/home'

/**
 * Where the memory server writes down every call other agents made, one line each: to
 * `<home>/logs/mcp-server.log`, stamped, and through `echo` (stderr, or serve's log). The stdio
 * and HTTP servers share it, so one file shows who read what whichever way they came.
 */
export function mcpCallLog(home: string, echo: (line: string) => void): (line: string) => void {
  const file = mcpServerLog(home)
  return (line) => {
    echo(`[mcp] ${line}`)
    try {
      appendRegularFile(file, `${new Date().toISOString()} ${line}\n`, 'logs/mcp-server.log')
    } catch (e) {
      echo(`[mcp] could not write the call log: ${(e as Error).message}`)
    }
  }
}

/** `<home>/logs/mcp-server.log`. */
export function mcpServerLog(home: string): string {
  const dir = join(homePaths(home).home, 'logs')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return join(dir, 'mcp-server.log')
}
