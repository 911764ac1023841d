import { createHash } from 'node:crypto'
import type { McpServerConfig } from '@shared/contract'
import { AppError } from '@shared/errors'

/**
 * A stdio server's command runs with the user's rights, and any window (or anything holding
 * browser mode's token) can write one into mcp.json. So a new or changed command runs only
 * after the user confirmed it where a page cannot answer for them: a native dialog of the main
 * process in the desktop app; in browser mode, a click in the app (the page is the only UI
 * there, so the token is the boundary), or never when the host was started with
 * --no-mcp-commands. What was confirmed is kept as a fingerprint of the command as it runs.
 */
export interface CommandRequest {
  server: string
  command: string
  args: string[]
  cwd: string
  /** The names of the environment it is given (their values may be keys: never shown). */
  envNames: string[]
}

export interface CommandConfirmer {
  /** Asks the user whether the command may run. */
  confirm(request: CommandRequest): Promise<boolean>
  /**
   * True: asked as soon as the server is to start (a native dialog). False: the server waits,
   * marked unconfirmed, until the user confirms it from the app (mcp_confirm_command).
   */
  asksOnStart: boolean
  /** Set when no command may be confirmed at all, saying why. */
  refused?: string
}

/** Browser mode: the user's click on Run in Settings → Tools is the confirmation. */
export const confirmInApp: CommandConfirmer = { asksOnStart: false, confirm: () => Promise.resolve(true) }

/** `loomverse serve --no-mcp-commands`: only Streamable HTTP servers are used. */
export const refuseCommands: CommandConfirmer = {
  asksOnStart: false,
  confirm: () => Promise.resolve(false),
  refused: 'this host was started with --no-mcp-commands: servers that run a program are not started',
}

/** The confirmed commands, kept by the mcp domain's store. */
export interface ConfirmedCommands {
  isConfirmed(fingerprint: string): boolean
  confirm(fingerprint: string, server: string, command: string): void
}

export class UnconfirmedCommand extends AppError {
  constructor(message: string) {
    super('unavailable', message)
  }
}

/** The command as it runs (values resolved), hashed: any change to what runs asks again. */
export function commandFingerprint(config: Exclude<McpServerConfig, { url: string }>, cwd: string): string {
  const { command, args = [], env = {} } = config as { command: string; args?: string[]; env?: Record<string, string> }
  const run = { command, args, cwd: (config as { cwd?: string }).cwd ?? cwd, env: Object.entries(env).sort() }
  return createHash('sha256').update(JSON.stringify(run)).digest('hex')
}

export function commandRequest(server: string, config: McpServerConfig, cwd: string): CommandRequest {
  const c = config as { command: string; args?: string[]; cwd?: string; env?: Record<string, string> }
  return { server, command: c.command, args: c.args ?? [], cwd: c.cwd ?? cwd, envNames: Object.keys(c.env ?? {}) }
}

/** The command line as a user reads it, each argument quoted when it needs to be. */
export function commandLine(request: Pick<CommandRequest, 'command' | 'args'>): string {
  return [request.command, ...request.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')
}
