import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCore, type Core } from '../../core'
import { useTempHome } from '../../../tests/support/tempHome'

// memory_import from a window or a WebSocket script: only a file in the home's imports/ folder.

const home = useTempHome()
let core: Core | null = null
afterEach(async () => {
  await core?.dispose()
  core = null
})

async function setup(): Promise<{ core: Core; personaId: string }> {
  core = startCore({ home: home(), mode: 'browser', log: () => {} })
  const made = await core.router.call('create_persona', { name: 'Aoi' }, { transport: 'internal' })
  if (!made.ok) throw new Error(made.error.message)
  return { core, personaId: (made.value as { id: string }).id }
}

const log = [
  JSON.stringify({ id: 'a', speaker: 'Aoi', text: 'The plants need water.', time: '2024-06-01T09:00:00Z' }),
  JSON.stringify({ id: 'b', speaker: 'Aoi', text: 'my password is hunter2', time: 'not a time' }),
].join('\n')

describe('memory_import from a window', () => {
  it('imports a file named relative to imports/ or by its full path there, reporting lines without their text', async () => {
    const { core, personaId } = await setup()
    const imports = join(core.paths.home, 'imports')
    mkdirSync(join(imports, 'logs'), { recursive: true })
    writeFileSync(join(imports, 'logs', 'chat.jsonl'), log)
    const relative = await core.router.call(
      'memory_import',
      { persona_id: personaId, path: 'logs/chat.jsonl', no_llm: true },
      { transport: 'ws' },
    )
    expect(relative).toEqual({
      ok: true,
      value: {
        imported: 1,
        skipped: 1,
        unreadable: 1,
        errors: [expect.stringMatching(/^line 2: time: cannot be read; use ISO 8601/)],
        jobs: 0,
      },
    })
    expect(JSON.stringify(relative)).not.toContain('hunter2')
    const absolute = await core.router.call(
      'memory_import',
      { persona_id: personaId, path: join(imports, 'logs', 'chat.jsonl'), no_llm: true },
      { transport: 'ipc' },
    )
    expect(absolute).toMatchObject({ ok: true, value: { imported: 0, skipped: 2 } })
  })

  it('says what a .json chat log must be when it is none of the kinds Loomverse knows, and writes nothing', async () => {
    const { core, personaId } = await setup()
    mkdirSync(join(core.paths.home, 'imports'), { recursive: true })
    writeFileSync(join(core.paths.home, 'imports', 'notes.json'), JSON.stringify({ notes: ['a', 'b'] }))
    const r = await core.router.call(
      'memory_import',
      { persona_id: personaId, path: 'notes.json' },
      { transport: 'ws' },
    )
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'bad_file',
        message: /^notes\.json: is not a chat log Loomverse can read: a \.json chat log must be LoCoMo JSON/,
      },
    })
    expect(await core.router.call('memory_status', { persona_id: personaId }, { transport: 'ws' })).toMatchObject({
      ok: true,
      value: { units: 0 },
    })
  })

  it('refuses a file elsewhere in the home, creating imports/ for the user to put it in', async () => {
    const { core, personaId } = await setup()
    writeFileSync(join(core.paths.home, 'chat.jsonl'), log)
    const result = await core.router.call(
      'memory_import',
      { persona_id: personaId, path: join(core.paths.home, 'chat.jsonl'), no_llm: true },
      { transport: 'ws' },
    )
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        message: `${join(core.paths.home, 'chat.jsonl')}: is not in the imports folder; copy it into ${join(core.paths.home, 'imports')} first`,
      },
    })
    expect(existsSync(join(core.paths.home, 'imports'))).toBe(true)
    // Nothing was opened for the persona either.
    expect(existsSync(join(core.paths.memory, `memory_${personaId}.db`))).toBe(false)
  })

  it('refuses a name longer than the system allows as bad input, not as an internal error (found by the fuzzer)', async () => {
    const { core, personaId } = await setup()
    const long = 'm'.repeat(4096)
    const r = await core.router.call(
      'memory_import',
      { persona_id: personaId, path: long, no_llm: true },
      { transport: 'ws' },
    )
    expect(r).toEqual({
      ok: false,
      error: { code: 'bad_input', message: `${long}: is longer than this system allows a path to be` },
    })
  })

  it('refuses a path with a NUL character at the router, from a window and from the command line alike (found by the fuzzer)', async () => {
    const { core, personaId } = await setup()
    for (const transport of ['ws', 'internal'] as const) {
      const r = await core.router.call(
        'memory_import',
        { persona_id: personaId, path: 'chat\u0000.jsonl', no_llm: true },
        { transport },
      )
      expect(r).toEqual({
        ok: false,
        error: { code: 'bad_input', message: 'memory_import: path: must not contain a NUL character (U+0000)' },
      })
    }
    const folder = await core.router.call('vizprompt_import', { path: 'x\u0000' }, { transport: 'internal' })
    expect(folder).toMatchObject({ ok: false, error: { code: 'bad_input' } })
  })
})
