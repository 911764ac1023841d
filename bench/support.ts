import { fork } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Core } from '../main/core'
import { startHost } from '../main/host/wsHost'
import type { FromOutside, ToOutside } from './api/outside'

const repoRoot = resolve(import.meta.dirname, '..')

/** The p-th percentile of unsorted samples, to 0.01 ms. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(2))
}

/** Calls a contract method as the app would, throwing the error it answers with. */
export function callerOf(core: Core) {
  return async <T>(method: string, input: unknown): Promise<T> => {
    const r = await core.router.call(method, input, { transport: 'internal' })
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`)
    return r.value as T
  }
}

/**
 * The fake LLM in a process of its own (bench/api/outside.ts, which also runs bench/api's
 * /api/chat client): on a user's machine a model server and the program calling the API are
 * other processes, and sharing the app's event loop, or its process's threads and collector,
 * would charge the app for their work. `env` points a core at it.
 */
export async function startOutside() {
  const child = fork(fileURLToPath(new URL('./api/outside.ts', import.meta.url)), [], {
    execArgv: ['--import', pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href],
    env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.node.json') },
  })
  const llmUrl = await new Promise<string>((resolve, reject) => {
    const ready = (m: FromOutside) => {
      if (m.type !== 'ready') return
      child.off('message', ready)
      resolve(m.llmUrl)
    }
    child.on('message', ready)
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the outside process exited (${code}) before it was ready`)))
  })
  return {
    send: (m: ToOutside) => child.send(m),
    onMessage: (listener: (m: FromOutside) => void) => child.on('message', listener),
    env: {
      OPENAI_BASE_URL: `${llmUrl}/v1`,
      OPENAI_API_KEY: 'sk-test',
      LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini',
      LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini',
    },
    close: () => child.send({ type: 'close' } satisfies ToOutside),
  }
}

/**
 * One chat turn as a window sends it (chat_send through the router): its node and the
 * milliseconds to the node's first streamed text. Answered once the reply has ended, so the
 * next turn never overlaps this one's tail.
 */
export async function chatTurn(
  core: Core,
  input: { flow_id: string; prompt: string; persona_id: string; parent_id: string | null },
): Promise<{ nodeId: string; firstMs: number }> {
  const t0 = performance.now()
  let nodeId: string | null = null
  let firstAt: number | null = null
  const done = new Promise<void>((resolve) => {
    const stop = core.bus.listen((event, data) => {
      const d = data as { node_id?: string; state?: string }
      // Text may stream before chat_send has answered with the node's id.
      if (event === 'node_stream' && firstAt === null && (nodeId === null || d.node_id === nodeId))
        firstAt = performance.now()
      if (event === 'chat_status' && d.node_id === nodeId && (d.state === 'done' || d.state === 'failed')) {
        stop()
        resolve()
      }
    })
  })
  const { parent_id, ...rest } = input
  const r = await core.router.call('chat_send', { ...rest, ...(parent_id ? { parent_id } : {}) }, { transport: 'ws' })
  if (!r.ok) throw new Error(r.error.message)
  nodeId = (r.value as { node_id: string }).node_id
  await done
  return { nodeId, firstMs: firstAt! - t0 }
}

/** The core's HTTP API on a loopback port, as bench/api's runs serve it: no rate limit in the way. */
export function startApiHost(core: Core) {
  return startHost({
    router: core.router,
    bus: core.bus,
    token: 'bench-ui-token-0123456789abcdef',
    port: 0,
    staticDir: null,
    api: { useToken: (t) => core.apiTokens.use(t), version: 'bench', rateLimits: { burst: 1e9, perSecond: 1e9 } },
  })
}
