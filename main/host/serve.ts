import { version } from '../../package.json'
import { startCore, type Core } from '../core'
import { refuseCommands } from '../mcp/mcpCommands'
import type { RateLimits } from './rateLimit'
import { homePaths } from '../kernel/home'
import type { WorkerEntry } from '../kernel/jobs/workerThread'
import { graphEventFlows } from './eventFlows'
import { mcpCallLog } from './mcp/callLog'
import { memoryOverHttp } from './mcp/mcpHttp'
import { liveHost, removeHostFile, writeHostFile } from './hostFile'
import { keptToken } from './tokenFile'
import { startHost, type Host } from './wsHost'

export interface ServeOptions {
  home: string
  port: number
  /** A token of the user's choosing, kept from now on; without one, the kept token (or a new one, kept). */
  token?: string
  /** A new token instead of the kept one. */
  newToken?: boolean
  staticDir: string | null
  jobWorker?: WorkerEntry | null
  memoryWorker?: WorkerEntry | null
  /** Per API token; tests lower them. */
  rateLimits?: RateLimits
  log?: (message: string) => void
  /** Never run an MCP server's program, whatever a window confirms (--no-mcp-commands). */
  noMcpCommands?: boolean
  /** Offer notify to every API token's agent at /api/mcp (--mcp-allow-writes); else only to tokens made to notify. */
  mcpAllowWrites?: boolean
}

export interface Serving {
  core: Core
  host: Host
  /** The windows' token as it is now. */
  readonly token: string
  stop(): Promise<void>
}

/** `loomverse serve`: the core behind the loopback host, announced in host.json. */
export async function serve(options: ServeOptions): Promise<Serving> {
  // A second host on one home would take over host.json, then delete it on stop, leaving the
  // first one's scripts without their address: one host per home.
  const running = await liveHost(homePaths(options.home).hostFile)
  if (running)
    throw new Error(
      `a Loomverse host (pid ${running.pid}) is already serving ${options.home} on port ${running.port}; ` +
        'stop it first, or give another --home',
    )
  let renew: (() => { url: string }) | null = null
  const core = startCore({
    home: options.home,
    mode: 'browser',
    log: options.log,
    jobWorker: options.jobWorker,
    memoryWorker: options.memoryWorker,
    backupSchedule: true,
    warmUp: true,
    ...(options.noMcpCommands ? { mcpCommands: refuseCommands } : {}),
    browserToken: {
      rotate: () => {
        if (!renew) throw new Error('the host is not serving yet')
        return renew()
      },
    },
  })
  let token: string
  let host: Host
  try {
    // Kept in the data folder: a restarted host takes the same token, so open tabs reconnect.
    token = keptToken(core.paths.home, { given: options.token || undefined, rotate: options.newToken })
    host = await startHost({
      router: core.router,
      bus: core.bus,
      token,
      port: options.port,
      staticDir: options.staticDir,
      eventFlows: graphEventFlows(core.graph),
      wholeFlow: (flowId) => core.graph.wholeFlow(flowId),
      api: {
        useToken: (t) => core.apiTokens.use(t),
        version,
        rateLimits: options.rateLimits,
        mcp: memoryOverHttp({
          core,
          allowWrites: options.mcpAllowWrites === true,
          logCall: mcpCallLog(core.paths.home, options.log ?? (() => {})),
        }),
      },
      log: options.log,
    })
  } catch (e) {
    await core.dispose()
    throw e
  }
  const startedAt = new Date().toISOString()
  const announce = () =>
    writeHostFile(core.paths.hostFile, {
      url: host.url,
      port: host.port,
      pid: process.pid,
      token,
      started_at: startedAt,
    })
  announce()
  renew = () => {
    token = keptToken(core.paths.home, { rotate: true })
    host.setToken(token)
    announce()
    options.log?.(`[host] a new access token was made; open ${host.url}`)
    return { url: host.url }
  }
  let stopped = false
  return {
    core,
    host,
    get token() {
      return token
    },
    async stop() {
      if (stopped) return
      stopped = true
      await host.close()
      removeHostFile(core.paths.hostFile, { pid: process.pid, port: host.port, token })
      await core.dispose()
    },
  }
}
