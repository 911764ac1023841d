import { version } from '../../package.json'
import { startCore, type Core } from '../core'
import type { RateLimits } from './rateLimit'
import { homePaths } from '../kernel/home'
import type { WorkerEntry } from '../kernel/jobs/jobService'
import { newToken } from './auth'
import { graphEventFlows } from './eventFlows'
import { liveHost, removeHostFile, writeHostFile } from './hostFile'
import { startHost, type Host } from './wsHost'

export interface ServeOptions {
  home: string
  port: number
  token?: string
  staticDir: string | null
  jobWorker?: WorkerEntry | null
  memoryWorker?: WorkerEntry | null
  /** Per API token; tests lower them. */
  rateLimits?: RateLimits
  log?: (message: string) => void
}

export interface Serving {
  core: Core
  host: Host
  token: string
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
  const core = startCore({
    home: options.home,
    mode: 'browser',
    log: options.log,
    jobWorker: options.jobWorker,
    memoryWorker: options.memoryWorker,
    backupSchedule: true,
  })
  const token = options.token || newToken()
  let host: Host
  try {
    host = await startHost({
      router: core.router,
      bus: core.bus,
      token,
      port: options.port,
      staticDir: options.staticDir,
      eventFlows: graphEventFlows(core.graph),
      api: { useToken: (t) => core.apiTokens.use(t), version, rateLimits: options.rateLimits },
      log: options.log,
    })
  } catch (e) {
    await core.dispose()
    throw e
  }
  writeHostFile(core.paths.hostFile, {
    url: host.url,
    port: host.port,
    pid: process.pid,
    token,
    started_at: new Date().toISOString(),
  })
  let stopped = false
  return {
    core,
    host,
    token,
    async stop() {
      if (stopped) return
      stopped = true
      await host.close()
      removeHostFile(core.paths.hostFile, { pid: process.pid, port: host.port, token })
      await core.dispose()
    },
  }
}
