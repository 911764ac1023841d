import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, type CliIo } from '../cli'
import { startCore } from '../core'
import { useTempHome } from '../../tests/support/tempHome'

const home = useTempHome()

function io(): { cli: CliIo; out: string[]; err: string[] } {
  const out: string[] = []
  const err: string[] = []
  return {
    out,
    err,
    cli: { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, untilStopped: async () => {}, jobWorker: null },
  }
}

describe('loomverse memory import', () => {
  it('imports a JSONL file with --no-llm, and a second run adds nothing', async () => {
    const dir = home()
    const core = startCore({ home: dir, mode: 'browser', log: () => {} })
    const persona = await core.router.call('create_persona', { name: 'Mika' }, { transport: 'internal' })
    await core.dispose()
    if (!persona.ok) throw new Error(persona.error.message)
    const id = (persona.value as { id: string }).id
    const file = join(dir, 'in.jsonl')
    writeFileSync(
      file,
      [
        { id: 'a', speaker: 'user', text: 'I like kayaking.', time: '2024-06-01T09:00:00Z' },
        { id: 'b', speaker: 'Mika', text: 'Kayaking sounds fun!', time: 1717232460 },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    )
    const argv = ['memory', 'import', '--home', dir, '--persona', id, file, '--no-llm']
    const first = io()
    expect(await runCli(argv, first.cli)).toBe(0)
    expect(first.out).toEqual([`Imported 2 messages (0 skipped) into ${id}'s memory`])
    const again = io()
    expect(await runCli(argv, again.cli)).toBe(0)
    expect(again.out[0]).toMatch(/Imported 0 messages \(2 skipped\)/)
  })

  it('refuses a missing persona option and unknown subcommands with exit code 2', async () => {
    const r = io()
    expect(await runCli(['memory', 'import', '--home', home(), 'x.jsonl'], r.cli)).toBe(2)
    expect(r.err[0]).toMatch(/--persona ID is required/)
    expect(await runCli(['memory', 'export', '--home', home(), 'x.jsonl'], io().cli)).toBe(2)
  })
})
