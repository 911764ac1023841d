import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { version } from '../package.json'
import { resolveHome } from './home'
import { serve } from './host/serve'

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
  env: NodeJS.ProcessEnv
  /** Resolves when the user asks the process to stop (Ctrl+C, SIGTERM). */
  untilStopped: () => Promise<void>
}

const help = `loomverse ${version} — a studio for long conversations with AI personas

Usage:
  loomverse serve [--port N] [--home DIR] [--token T]   run browser mode on 127.0.0.1
  loomverse --version
  loomverse --help

Options:
  --home DIR    data folder (default: $LOOMVERSE_HOME, else ~/.loomverse)
  --port N      port to listen on; 0 picks a free one (default: 0)
  --token T     access token (default: $LOOMVERSE_TOKEN, else a new random one per launch)
`

/** Runs one command and returns the process exit code. 2 means the command line was wrong. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        home: { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
      },
    })
  } catch (e) {
    io.err(`loomverse: ${(e as Error).message}\nRun "loomverse --help" for usage.`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.version) {
    io.out(version)
    return 0
  }
  const [command, ...rest] = positionals
  if (values.help || command === undefined || command === 'help') {
    io.out(help)
    return 0
  }
  if (rest.length > 0) {
    io.err(`loomverse ${command}: unexpected argument "${rest[0]}"`)
    return 2
  }
  if (command !== 'serve') {
    io.err(`loomverse: unknown command "${command}". Run "loomverse --help" for usage.`)
    return 2
  }

  const port = parsePort(values.port ?? '0')
  if (port === null) {
    io.err(`loomverse serve: --port must be an integer from 0 to 65535, got "${values.port}"`)
    return 2
  }
  const token = values.token ?? (io.env.LOOMVERSE_TOKEN || undefined)
  if (token !== undefined && token.length < 16) {
    io.err('loomverse serve: --token must be at least 16 characters')
    return 2
  }
  const home = resolveHome(values.home, io.env)
  let serving
  try {
    serving = await serve({ home, port, token, staticDir: rendererDir(), log: io.err })
  } catch (e) {
    io.err(`loomverse serve: ${(e as Error).message}`)
    return 1
  }
  io.out(`Loomverse is running at ${serving.host.url}`)
  io.out(`Data: ${home}  (press Ctrl+C to stop)`)
  await io.untilStopped()
  await serving.stop()
  return 0
}

function parsePort(text: string): number | null {
  if (!/^\d+$/.test(text)) return null
  const n = Number(text)
  return n <= 65535 ? n : null
}

/** The built renderer next to this file in `out/`; absent when running from source without a build. */
function rendererDir(): string | null {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
  return existsSync(dir) ? dir : null
}

/** The process entry used by bin/loomverse.js. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<never> {
  const io: CliIo = {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    env: process.env,
    untilStopped: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve())
        process.once('SIGTERM', () => resolve())
      }),
  }
  try {
    process.exit(await runCli(argv, io))
  } catch (e) {
    console.error(e)
    process.exit(1)
  }
}
