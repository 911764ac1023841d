import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { version } from '../package.json'
import { runCli, type CliIo } from './cli'
import { useTempHome } from './testing/tempHome'
import { ask, openWs } from './testing/wsProbe'

const home = useTempHome()

function io(onServing?: (out: string[]) => Promise<void>) {
  const out: string[] = []
  const err: string[] = []
  const cli: CliIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {},
    untilStopped: () => (onServing ? onServing(out) : Promise.resolve()),
  }
  return { cli, out, err }
}

describe('loomverse CLI', () => {
  it('prints its version and help', async () => {
    const v = io()
    expect(await runCli(['--version'], v.cli)).toBe(0)
    expect(v.out).toEqual([version])
    const h = io()
    expect(await runCli(['--help'], h.cli)).toBe(0)
    expect(h.out.join('\n')).toMatch(/loomverse serve \[--port N\] \[--home DIR\] \[--token T\]/)
  })

  it('exits 2 with a clear message for an unknown command, flag or bad port', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['serve', '--colour'], /Unknown option '--colour'/],
      [['serve', '--port', 'eighty'], /--port must be an integer from 0 to 65535, got "eighty"/],
      [['serve', '--port', '70000'], /--port must be an integer/],
      [['serve', '--token', 'short'], /--token must be at least 16 characters/],
    ]
    for (const [argv, message] of cases) {
      const r = io()
      expect(await runCli(argv, r.cli)).toBe(2)
      expect(r.err.join('\n')).toMatch(message)
    }
  })

  it('serve prints the URL with the real port and token, answers on it, and stops cleanly', async () => {
    const dir = home()
    const r = io(async (out) => {
      const line = out.find((l) => l.startsWith('Loomverse is running at '))!
      const url = new URL(line.slice('Loomverse is running at '.length))
      expect(url.hostname).toBe('127.0.0.1')
      expect(Number(url.port)).toBeGreaterThan(0)
      expect(url.searchParams.get('token')).toBe('pinned-token-0123456789')
      const ws = await openWs(`ws://127.0.0.1:${url.port}/ws?token=pinned-token-0123456789`)
      if ('refused' in ws) throw new Error('refused')
      expect(await ask(ws, { id: 1, action: 'app_info' })).toMatchObject({ status: 'success', data: { home: dir } })
      ws.close()
    })
    expect(await runCli(['serve', '--home', dir, '--port', '0', '--token', 'pinned-token-0123456789'], r.cli)).toBe(0)
    expect(r.err).toEqual([])
  })

  it('refuses to serve a data folder written by a newer Loomverse, exiting 1 with the reason', async () => {
    const dir = home()
    const first = io(async () => {})
    expect(await runCli(['serve', '--home', dir], first.cli)).toBe(0)
    const db = new Database(join(dir, 'loomverse.db'))
    db.pragma('user_version = 42')
    db.close()
    const second = io(async () => {
      throw new Error('must not start serving')
    })
    expect(await runCli(['serve', '--home', dir], second.cli)).toBe(1)
    expect(second.err.join('\n')).toMatch(/loomverse\.db has schema version 42, but this Loomverse knows only up to 2/)
  })

  it('reads the token from LOOMVERSE_TOKEN and the home from LOOMVERSE_HOME', async () => {
    const dir = home()
    const r = io(async (out) => {
      expect(out[0]).toMatch(/\?token=env-token-0123456789abcdef$/)
      expect(out[1]).toContain(dir)
    })
    r.cli.env = { LOOMVERSE_TOKEN: 'env-token-0123456789abcdef', LOOMVERSE_HOME: dir }
    expect(await runCli(['serve'], r.cli)).toBe(0)
  })
})
