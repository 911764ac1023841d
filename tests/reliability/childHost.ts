import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { resolve } from 'node:path'

export interface ChildHost {
  port: number
  token: string
  child: ChildProcess
  /** Whether the host process is still running. */
  alive(): boolean
  /** Everything the process wrote to stderr so far. */
  stderr(): string
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>
}

const root = resolve(import.meta.dirname, '../..')

/** Starts `loomverse serve` from source in a child process and waits for its URL line. */
export async function startChildHost(options: {
  home: string
  token: string
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
}): Promise<ChildHost> {
  const timeoutMs = options.timeoutMs ?? 60_000
  const child = spawn(
    process.execPath,
    [
      resolve(root, 'node_modules/tsx/dist/cli.mjs'),
      '--tsconfig',
      resolve(root, 'tsconfig.node.json'),
      resolve(root, 'tests/reliability/serveFromSource.ts'),
      'serve',
      '--home',
      options.home,
      '--port',
      '0',
      '--token',
      options.token,
    ],
    { cwd: root, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`serve printed no URL within ${timeoutMs} ms; stderr: ${stderr}`))
    }, timeoutMs)
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      stdout += c
      const m = /Loomverse is running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)
      if (m) {
        clearTimeout(timer)
        resolvePort(Number(m[1]))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code} before printing its URL; stderr: ${stderr}`))
    })
  })
  return {
    port,
    token: options.token,
    child,
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const [code] = (await exited) as [number | null]
      return code
    },
  }
}
