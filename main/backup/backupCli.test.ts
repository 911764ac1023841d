import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { useTempHome } from '../../tests/support/tempHome'
import { runCli } from '../cli'
import { startCore, type Core } from '../core'
import { damageDatabase } from '../../tests/support/backupDamage'
import { cliIo } from '../../tests/support/cliIo'

const temp = useTempHome()
const cores: Core[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose()
})

describe('loomverse backup and restore', () => {
  it('backs up while a running core holds the data folder, then restores into a new folder that opens', async () => {
    const home = join(temp(), 'home')
    const live = startCore({ home, mode: 'browser', log: () => {} })
    cores.push(live)
    const made = await live.router.call(
      'create_node',
      { prompt: 'remember me', response: 'ok' },
      { transport: 'internal' },
    )
    if (!made.ok) throw new Error(made.error.message)

    const backups = join(temp(), 'backups')
    const b = cliIo()
    expect(await runCli(['backup', '--home', home, '--to', backups], b.cli)).toBe(0)
    expect(b.err).toEqual([])
    const [name] = readdirSync(backups)
    expect(b.out[0]).toBe(join(backups, name!))
    expect(b.out[1]).toMatch(/^1 databases and \d+ files, \d+ bytes, verified$/)

    const to = join(temp(), 'restored')
    const r = cliIo()
    expect(await runCli(['restore', join(backups, name!), '--home', home, '--to', to], r.cli)).toBe(0)
    expect(r.out[0]).toMatch(new RegExp(`^Restored \\d+ files into ${to.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`))
    expect(r.out.at(-1)).toContain(`loomverse serve --home "${to}"`)
    const restored = startCore({ home: to, mode: 'browser', log: () => {} })
    cores.push(restored)
    const node = await restored.router.call(
      'get_node',
      { id: (made.value as { id: string }).id },
      { transport: 'internal' },
    )
    expect(node).toMatchObject({ ok: true, value: { prompt: 'remember me' } })
  }, 60_000)

  it('says what is wrong: no folder, a missing --to, a damaged backup', async () => {
    const home = join(temp(), 'home')
    const none = cliIo()
    expect(await runCli(['backup', '--home', home], none.cli)).toBe(2)
    expect(none.err.join('\n')).toMatch(/No backup folder: pick one in Settings → Backup/)

    const missing = cliIo()
    expect(await runCli(['restore', join(temp(), 'b')], missing.cli)).toBe(2)
    expect(missing.err.join('\n')).toMatch(/--to NEW_HOME is required/)

    const backups = join(temp(), 'backups')
    mkdirSync(backups)
    expect(await runCli(['backup', '--home', home, '--to', backups], cliIo().cli)).toBe(0)
    const backup = join(backups, readdirSync(backups)[0]!)
    damageDatabase(join(backup, 'data', 'loomverse.db'))
    const to = join(temp(), 'restored')
    const r = cliIo()
    expect(await runCli(['restore', backup, '--home', home, '--to', to], r.cli)).toBe(1)
    expect(r.err.join('\n')).toMatch(/Not restored, failed verification: loomverse\.db: its sha256 differs/)
    expect(existsSync(join(to, 'loomverse.db'))).toBe(false)
  }, 60_000)
})
