import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FakeLlm } from './fakeLlm'

// The app run as a user runs it (`bin/loomverse.js serve`), for e2e tests and the reliability
// suite: the build in out/ (`npx electron-vite build`), or the TypeScript source through tsx
// for a unit test that needs the host in a process of its own.

export interface Server {
  /** `http://127.0.0.1:<port>/?token=…`, exactly as printed. */
  url: string
  origin: string
  port: number
  token: string
  /** `ws://127.0.0.1:<port>/ws?token=…`, for requests a test makes on its own. */
  wsUrl: string
  home: string
  pid: number
  /** Resolves with the exit code (null after a signal) once the process has ended, for whatever reason. */
  exited: Promise<number | null>
  /** What the process wrote to stderr so far (a crash's stack ends up here). */
  stderr(): string
  /** Stops the process; the data folder is removed unless `keepHome` (to start again on it). */
  stop(options?: { keepHome?: boolean }): Promise<void>
  /** SIGKILL: no shutdown code runs, as when the machine loses power. The data folder stays. */
  kill(): Promise<void>
}

export interface ServerOptions {
  home?: string
  port?: number
  token?: string
  /** Extra environment, e.g. the fake LLM server's address. */
  env?: NodeJS.ProcessEnv
  /** Run main/cli.ts from source (no build needed; slower to start). */
  fromSource?: boolean
  /** How long to wait for the URL line. */
  startTimeoutMs?: number
}

const repoRoot = resolve(import.meta.dirname, '../..')

/** Runs `loomverse serve` (a free port, a new token, its own temporary LOOMVERSE_HOME by default), as a user would. */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'loomverse-e2e-'))
  // The app under test runs on an English machine whatever this one is set to, so `auto`
  // resolves the same everywhere (a caller may give another locale through `env`).
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'en_US.UTF-8', ...options.env }
  delete env.LOOMVERSE_TOKEN // every server gets its own random token unless the test pins one
  env.LOOMVERSE_CHECK_OUTPUT = '1' // hold every answer to its contract schema while testing
  if (options.fromSource) env.TSX_TSCONFIG_PATH = join(repoRoot, 'tsconfig.node.json')
  // From source, tsx is loaded into the host's own process (not its CLI, which runs the script in
  // a child): `kill` must reach the host itself, or a SIGKILL leaves it running, orphaned.
  const entry = options.fromSource
    ? [
        '--import',
        pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
        join(repoRoot, 'tests/support/serveFromSource.ts'),
      ]
    : [join(repoRoot, 'bin/loomverse.js')]
  const args = [...entry, 'serve', '--port', String(options.port ?? 0), '--home', home]
  const startTimeoutMs = options.startTimeoutMs ?? (options.fromSource ? 60_000 : 30_000)
  if (options.token) args.push('--token', options.token)
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  })
  let err = ''
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(
      () => reject(new Error(`serve printed no URL in ${startTimeoutMs / 1000} s\n${out}\n${err}`)),
      startTimeoutMs,
    )
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const match = /Loomverse is running at (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}\n${out}\n${err}`))
    })
  })
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    port: Number(parsed.port),
    token: parsed.searchParams.get('token')!,
    wsUrl: `ws://127.0.0.1:${parsed.port}/ws?token=${parsed.searchParams.get('token')}`,
    home,
    pid: child.pid!,
    exited,
    stderr: () => err,
    stop: async ({ keepHome = false } = {}) => {
      await endChild(child, 'SIGTERM')
      if (!keepHome) rmSync(home, { recursive: true, force: true })
    },
    kill: () => endChild(child, 'SIGKILL'),
  }
}

function endChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}

/** Points the app's OpenAI-compatible provider at a fake LLM server (real HTTP, scripted replies). */
export function llmEnv(llm: FakeLlm): NodeJS.ProcessEnv {
  return { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: 'sk-test', LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini' }
}
