import { afterEach } from 'vitest'
import type { Router } from '../../main/kernel/router'
import { startHost, type Host, type HostOptions } from '../../main/host/wsHost'
import type { LlmHarness } from './llmCore'

/** The windows' launch token of the hosts below: the HTTP API must refuse it. */
export const UI_TOKEN = 'ui-launch-token-0123456789abcdef'

/**
 * The real loopback host over a harness's core, serving the HTTP API (rate limits out of the
 * way unless `api` sets them; `router` to put something in front of the core's); each is closed
 * after its test.
 */
export function useApiHost(): (
  h: LlmHarness,
  api?: Partial<NonNullable<HostOptions['api']>>,
  router?: Router,
) => Promise<Host> {
  const hosts: Host[] = []
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close()
  })
  return async (h, api = {}, router = h.core.router) => {
    const host = await startHost({
      router,
      bus: h.core.bus,
      token: UI_TOKEN,
      port: 0,
      staticDir: null,
      api: {
        useToken: (t) => h.core.apiTokens.use(t),
        version: 'test',
        rateLimits: { burst: 1000, perSecond: 1000 },
        ...api,
      },
    })
    hosts.push(host)
    return host
  }
}
