import { statSync } from 'node:fs'
import type { McpServerConfig, McpServerInfo, McpServerList } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { EventBus } from '../kernel/events'
import {
  commandFingerprint,
  commandLine,
  commandRequest,
  UnconfirmedCommand,
  type CommandConfirmer,
  type ConfirmedCommands,
} from './mcpCommands'
import type { McpSecrets } from './mcpSecrets'
import { McpFileError, parseMcpText, readMcpFile, refuseWhileBroken, writeMcpFile, type McpFile } from './mcpFile'
import { connectMcp, isHttp, type McpConnection, type McpRawResult, type McpTool } from './mcpTransport'

export interface McpServersOptions {
  file: string
  /** Where stdio servers run when their config names no cwd (the data folder). */
  cwd: string
  bus: EventBus
  /** Where the values of env and headers are kept instead of mcp.json. */
  secrets: McpSecrets
  /** Who confirms a new or changed stdio command before it runs, and what was confirmed. */
  commands: CommandConfirmer
  confirmedCommands: ConfirmedCommands
  /** Starting a server and listing its tools; a call has its own limit. */
  startTimeoutMs?: number
  /** The first wait before a lost server is started again; doubles per failure up to a minute. */
  backoffMs?: number
}

/** Lines kept of each server's log. */
const LOG_LINES = 500
const MAX_BACKOFF_MS = 60_000
/** Failures in a row after which a lost server waits to be used, tested or enabled again. */
const AUTO_RESTARTS = 5

interface ServerState {
  config: McpServerConfig
  status: McpServerInfo['status']
  error?: string
  tools: McpTool[]
  conn: McpConnection | null
  starting: Promise<McpConnection> | null
  failures: number
  retryAt: number
  restartTimer: NodeJS.Timeout | null
  log: string[]
}

/**
 * The MCP servers of `mcp.json`: started when first needed, restarted with a growing wait
 * after they fail, stopped when the file changes them. The file is the truth: it is read
 * again when it changed on disk, and every change from Settings rewrites it atomically.
 */
export class McpServers {
  private readonly states = new Map<string, ServerState>()
  private file: McpFile = { servers: new Map(), rest: {} }
  private fileError: string | null = null
  private fileStamp = ''
  private disposed = false

  constructor(private readonly options: McpServersOptions) {}

  list(): McpServerList {
    this.reload()
    return {
      servers: [...this.states.entries()].map(([name, s]) => this.info(name, s)),
      secrets_encrypted: this.options.secrets.encrypted,
      ...(this.fileError ? { file_error: this.fileError } : {}),
    }
  }

  /** Starts every enabled server not yet started (failures show in their status), then lists them. */
  async listStarted(): Promise<McpServerList> {
    this.reload()
    await Promise.all(
      [...this.states.keys()].map((name) => this.connection(name).catch(() => null)), // failures are in the status
    )
    return this.list()
  }

  info(name: string, s = this.state(name)): McpServerInfo {
    return {
      name,
      status: s.status,
      ...(s.error ? { error: s.error } : {}),
      tools: s.tools.map((t) => ({ name: t.name, description: t.description })),
      config: s.config,
    }
  }

  /** The server's connection, started now if needed. Throws (with the reason) when it cannot be had. */
  async connection(name: string): Promise<McpConnection> {
    this.reload()
    const s = this.state(name)
    if (s.config.disabled) throw new AppError('unavailable', `the MCP server "${name}" is disabled`)
    if (s.conn) return s.conn
    if (s.starting) return s.starting
    // Asked once: the Run button (confirmCommand) or a changed command asks again.
    if (s.status === 'unconfirmed') throw new AppError('unavailable', `the MCP server "${name}": ${s.error}`)
    if (s.status === 'failed' && Date.now() < s.retryAt)
      throw new AppError('unavailable', `the MCP server "${name}" failed: ${s.error ?? 'unknown reason'}`)
    return this.start(name, s)
  }

  async test(name: string): Promise<McpServerInfo> {
    this.reload()
    const s = this.state(name)
    await this.stop(s)
    s.failures = 0
    s.retryAt = 0
    await this.connection(name).catch(() => null) // the failure is in the status
    return this.info(name, s)
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpRawResult> {
    const conn = await this.connection(server)
    this.append(this.state(server), `call ${tool}`)
    return conn.callTool(tool, args, options)
  }

  /** The tools a started server listed; none before it starts. */
  toolsOf(name: string): McpTool[] {
    return this.state(name).tools
  }

  logOf(name: string): string[] {
    return [...this.state(name).log]
  }

  async save(name: string, config: McpServerConfig, previousName?: string): Promise<McpServerList> {
    this.reload()
    refuseWhileBroken(this.fileError)
    if (previousName !== undefined && previousName !== name && !this.file.servers.has(previousName))
      throw new AppError('not_found', `no MCP server "${previousName}"`)
    if ((previousName ?? name) !== name && this.file.servers.has(name))
      throw new AppError('conflict', `an MCP server is already named "${name}"`, {
        key: 'mcp_name_taken',
        params: { name },
      })
    const sealed = this.options.secrets.seal(name, config)
    const servers = new Map<string, McpServerConfig>()
    for (const [k, v] of this.file.servers) servers.set(k === previousName ? name : k, k === previousName ? sealed : v)
    servers.set(name, sealed)
    await this.write({ ...this.file, servers })
    // Saved again with the same references but maybe new values behind them: start it afresh.
    const s = this.states.get(name)
    if (s) await this.stop(s)
    return this.list()
  }

  async remove(name: string): Promise<McpServerList> {
    this.reload()
    refuseWhileBroken(this.fileError)
    this.state(name)
    const servers = new Map(this.file.servers)
    servers.delete(name)
    await this.write({ ...this.file, servers })
    return this.list()
  }

  async setEnabled(name: string, enabled: boolean): Promise<McpServerList> {
    this.reload()
    refuseWhileBroken(this.fileError)
    const { disabled: _, ...config } = this.state(name).config
    return this.save(name, enabled ? config : ({ ...config, disabled: true } as McpServerConfig))
  }

  async importText(text: string): Promise<{ added: string[]; skipped: string[]; list: McpServerList }> {
    this.reload()
    refuseWhileBroken(this.fileError)
    let theirs: McpFile
    try {
      theirs = parseMcpText(text, 'the imported file')
    } catch (e) {
      throw new AppError('bad_file', (e as Error).message)
    }
    const added: string[] = []
    const skipped: string[] = []
    const servers = new Map(this.file.servers)
    for (const [name, config] of theirs.servers) {
      if (servers.has(name)) skipped.push(name)
      else {
        servers.set(name, this.options.secrets.seal(name, config))
        added.push(name)
      }
    }
    if (added.length > 0) await this.write({ ...this.file, servers })
    return { added, skipped, list: this.list() }
  }

  async dispose(): Promise<void> {
    this.disposed = true
    await Promise.all([...this.states.values()].map((s) => this.stop(s)))
  }

  private async write(file: McpFile): Promise<void> {
    writeMcpFile(this.options.file, file)
    this.options.secrets.prune(file.servers.values())
    this.fileStamp = '' // read it back as written
    this.reload()
    this.options.bus.emit('mcp_servers_changed', this.list())
  }

  /** Takes the file as it is on disk when it changed; a broken file keeps the servers as they were. */
  private reload(): void {
    const stat = statSync(this.options.file, { throwIfNoEntry: false })
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : 'none'
    if (stamp === this.fileStamp) return
    this.fileStamp = stamp
    try {
      this.file = readMcpFile(this.options.file)
      this.fileError = null
    } catch (e) {
      if (!(e instanceof McpFileError)) throw e
      this.fileError = e.message
      return
    }
    this.sealWritten()
    for (const [name, s] of this.states) {
      const config = this.file.servers.get(name)
      if (!config) {
        void this.stop(s)
        this.states.delete(name)
      } else if (JSON.stringify(config) !== JSON.stringify(s.config)) {
        void this.stop(s)
        this.states.set(name, fresh(config))
      }
    }
    for (const [name, config] of this.file.servers) if (!this.states.has(name)) this.states.set(name, fresh(config))
  }

  /**
   * A file written by hand or by another app may hold keys in env or headers: they are moved to
   * the secret file and the file is written again with references, before anything uses it.
   */
  private sealWritten(): void {
    const { secrets } = this.options
    if (![...this.file.servers.values()].some((c) => secrets.hasPlain(c))) return
    const servers = new Map([...this.file.servers].map(([name, c]) => [name, secrets.seal(name, c)]))
    this.file = { ...this.file, servers }
    writeMcpFile(this.options.file, this.file)
    const stat = statSync(this.options.file)
    this.fileStamp = `${stat.mtimeMs}:${stat.size}`
  }

  private state(name: string): ServerState {
    const s = this.states.get(name)
    if (!s) throw new AppError('not_found', `no MCP server "${name}" in mcp.json`)
    return s
  }

  private start(name: string, s: ServerState): Promise<McpConnection> {
    s.status = 'starting'
    s.error = undefined
    this.append(s, 'starting')
    const starting = this.confirmed(name, s).then((config) =>
      connectMcp(config, {
        cwd: this.options.cwd,
        timeoutMs: this.options.startTimeoutMs ?? 30_000,
        log: (line) => this.append(s, line),
        onLost: (reason) => this.lost(name, s, reason),
      }),
    )
    s.starting = starting
    starting.then(
      (conn) => {
        if (s.starting !== starting) return void conn.close() // stopped meanwhile
        s.starting = null
        s.conn = conn
        s.tools = conn.tools
        s.status = 'connected'
        s.failures = 0
        this.append(s, `connected: ${conn.tools.length} tools`)
        this.changed()
      },
      (e: unknown) => {
        if (s.starting !== starting) return
        s.starting = null
        if (e instanceof UnconfirmedCommand) {
          s.status = 'unconfirmed'
          s.error = e.message
          this.append(s, `not started: ${e.message}`)
          this.changed()
        } else this.failed(s, e instanceof Error ? e.message : String(e))
      },
    )
    return starting
  }

  /**
   * The config the server starts with, its secrets resolved, once its command is confirmed: a
   * stdio command not confirmed as it now stands is asked about (a native dialog) or left
   * waiting for the user's confirmation in the app (mcpCommands).
   */
  private async confirmed(name: string, s: ServerState, ask = false): Promise<McpServerConfig> {
    const config = this.options.secrets.resolve(name, s.config)
    if (isHttp(config)) return config
    const { commands, confirmedCommands } = this.options
    const fingerprint = commandFingerprint(config, this.options.cwd)
    if (confirmedCommands.isConfirmed(fingerprint)) return config
    if (commands.refused) throw new UnconfirmedCommand(commands.refused)
    if (!ask && !commands.asksOnStart)
      throw new UnconfirmedCommand('its command runs once you confirm it (Settings → Tools → Run)')
    // Shown, kept and logged as the file has it: a key in its args stays a ${secret:…} reference.
    const request = commandRequest(name, s.config, this.options.cwd)
    if (!(await commands.confirm(request))) throw new UnconfirmedCommand('you did not allow its command to run')
    confirmedCommands.confirm(fingerprint, name, commandLine(request))
    this.append(s, `command confirmed: ${commandLine(request)}`)
    return config
  }

  /** The user asks to run a server's command (the Run button): confirmed, then started. */
  async confirmCommand(name: string): Promise<McpServerInfo> {
    this.reload()
    const s = this.state(name)
    await this.stop(s)
    try {
      await this.confirmed(name, s, true)
    } catch (e) {
      if (!(e instanceof UnconfirmedCommand)) throw e
      s.status = 'unconfirmed'
      s.error = e.message
      this.changed()
      return this.info(name, s)
    }
    return this.test(name)
  }

  private lost(name: string, s: ServerState, reason: string): void {
    if (!s.conn) return
    s.conn = null
    this.failed(s, reason)
    if (this.disposed || s.failures > AUTO_RESTARTS) return
    s.restartTimer = setTimeout(() => {
      s.restartTimer = null
      if (this.states.get(name) === s && !s.conn && !s.starting) void this.start(name, s).catch(() => {})
    }, s.retryAt - Date.now())
    s.restartTimer.unref()
  }

  private failed(s: ServerState, reason: string): void {
    s.failures++
    s.status = 'failed'
    s.error = reason
    s.retryAt = Date.now() + Math.min(MAX_BACKOFF_MS, (this.options.backoffMs ?? 1000) * 2 ** (s.failures - 1))
    this.append(s, `failed: ${reason}`)
    this.changed()
  }

  private async stop(s: ServerState): Promise<void> {
    if (s.restartTimer) clearTimeout(s.restartTimer)
    s.restartTimer = null
    const conn = s.conn
    s.conn = null
    s.starting = null
    s.tools = []
    s.status = s.config.disabled ? 'disabled' : 'idle'
    s.error = undefined
    if (conn) await conn.close().catch(() => {})
  }

  private append(s: ServerState, line: string): void {
    s.log.push(`${new Date().toISOString()} ${line}`)
    if (s.log.length > LOG_LINES) s.log.splice(0, s.log.length - LOG_LINES)
  }

  private changed(): void {
    if (!this.disposed) this.options.bus.emit('mcp_servers_changed', this.list())
  }
}

function fresh(config: McpServerConfig): ServerState {
  return {
    config,
    status: config.disabled ? 'disabled' : 'idle',
    tools: [],
    conn: null,
    starting: null,
    failures: 0,
    retryAt: 0,
    restartTimer: null,
    log: [],
  }
}
