import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import { startFakeLlm, type FakeLlm } from '../tests/support/fakeLlm'
import { AppPage } from './pages/app.page'
import { GraphPage } from './pages/graph.page'

export interface Server {
  /** `http://127.0.0.1:<port>/?token=…`, exactly as printed. */
  url: string
  origin: string
  port: number
  token: string
  /** `ws://127.0.0.1:<port>/ws?token=…`, for requests a test makes on its own. */
  wsUrl: string
  home: string
  /** Stops the process; the data folder is removed unless `keepHome` (to start again on it). */
  stop(options?: { keepHome?: boolean }): Promise<void>
}

export interface ServerOptions {
  home?: string
  port?: number
  token?: string
  /** Extra environment, e.g. the fake LLM server's address. */
  env?: NodeJS.ProcessEnv
}

/** Runs `loomverse serve` (a free port, a new token, its own temporary LOOMVERSE_HOME by default), as a user would. */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'loomverse-e2e-'))
  // The app under test runs on an English machine whatever this one is set to, so `auto`
  // resolves the same everywhere (a spec may give another locale through `env`).
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'en_US.UTF-8', ...options.env }
  delete env.LOOMVERSE_TOKEN // every server gets its own random token unless the test pins one
  env.LOOMVERSE_CHECK_OUTPUT = '1' // hold every answer to its contract schema while testing
  const args = ['bin/loomverse.js', 'serve', '--port', String(options.port ?? 0), '--home', home]
  if (options.token) args.push('--token', options.token)
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 15 s\n${out}\n${err}`)), 15_000)
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const match = /Loomverse is running at (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}\n${out}\n${err}`)))
  })
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token')!,
    wsUrl: `ws://127.0.0.1:${parsed.port}/ws?token=${parsed.searchParams.get('token')}`,
    home,
    stop: async ({ keepHome = false } = {}) => {
      await stopChild(child)
      if (!keepHome) rmSync(home, { recursive: true, force: true })
    },
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** Points the app's OpenAI-compatible provider at a fake LLM server (real HTTP, scripted replies). */
export function llmEnv(llm: FakeLlm): NodeJS.ProcessEnv {
  return { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: 'sk-test', LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini' }
}

export const test = base.extend<{
  /** More environment for the app under test (`test.use({ serverEnv })`), beside the fake LLM's. */
  serverEnv: NodeJS.ProcessEnv
  llm: FakeLlm
  server: Server
  app: AppPage
  graph: GraphPage
}>({
  serverEnv: [{}, { option: true }],
  // eslint-disable-next-line no-empty-pattern
  llm: async ({}, use) => {
    const llm = await startFakeLlm()
    await use(llm)
    await llm.close()
  },
  server: async ({ llm, serverEnv }, use) => {
    const server = await startServer({ env: { ...llmEnv(llm), ...serverEnv } })
    await use(server)
    await server.stop()
  },
  app: async ({ page, server }, use) => {
    await use(new AppPage(page, server.url))
  },
  graph: async ({ page, server }, use) => {
    await use(new GraphPage(page, server.wsUrl))
  },
})

export { expect } from '@playwright/test'
