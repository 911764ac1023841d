import { execFileSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli, type CliIo } from '../cli'
import { startCore } from '../core'
import { useTempHome } from '../../tests/support/tempHome'
import { openMemory } from './store/db'

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
    expect(first.out).toEqual([`Imported 2 messages into Mika's memory`])
    const again = io()
    expect(await runCli(argv, again.cli)).toBe(0)
    expect(again.out[0]).toBe(`Imported 0 messages into Mika's memory; 2 were there already`)
  })

  it('refuses a missing persona option and unknown subcommands with exit code 2', async () => {
    const r = io()
    expect(await runCli(['memory', 'import', '--home', home(), 'x.jsonl'], r.cli)).toBe(2)
    expect(r.err[0]).toMatch(/--persona NAME_OR_ID is required/)
    expect(await runCli(['memory', 'export', '--home', home(), 'x.jsonl'], io().cli)).toBe(2)
  })
})

describe('loomverse memory import of real logs', () => {
  async function withPersonas(names: string[]): Promise<{ dir: string; ids: string[] }> {
    const dir = home()
    const core = startCore({ home: dir, mode: 'browser', log: () => {} })
    const ids: string[] = []
    for (const name of names) {
      const made = await core.router.call('create_persona', { name }, { transport: 'internal' })
      if (!made.ok) throw new Error(made.error.message)
      ids.push((made.value as { id: string }).id)
    }
    await core.dispose()
    return { dir, ids }
  }

  /** The persona's episodes as (reference, time, text), oldest first. */
  async function episodes(dir: string, id: string): Promise<Array<[string | null, number | null, string]>> {
    const path = join(dir, 'memory', `memory_${id}.db`)
    if (!existsSync(path)) return []
    const store = openMemory(path)
    try {
      const rows = store.db.prepare('SELECT id FROM units WHERE kind = 1 ORDER BY occurred_at, id').all() as Array<{
        id: number
      }>
      return rows.map(({ id: unitId }) => {
        const unit = store.requireUnit(unitId)
        return [unit.external_ref, unit.occurred_at, store.text(unit)]
      })
    } finally {
      store.db.close()
    }
  }

  it('takes the persona by name, and reads each human time form', async () => {
    const { dir, ids } = await withPersonas(['Mika', 'Aoi'])
    const file = join(dir, 'times.jsonl')
    const forms = [
      '1:10 pm on 27 March, 2023',
      '2023-03-27 13:10',
      'March 27, 2023',
      '2023-03-27T13:10:00+09:00',
      1679922600,
      1679922600000,
    ]
    writeFileSync(
      file,
      forms.map((time, i) => JSON.stringify({ id: `t${i}`, speaker: 'Aoi', text: `form ${i}`, time })).join('\n'),
    )
    const r = io()
    expect(await runCli(['memory', 'import', '--home', dir, '--persona', 'Aoi', file, '--no-llm'], r.cli)).toBe(0)
    expect(r.out).toEqual([`Imported 6 messages into Aoi's memory`])
    const at = new Map((await episodes(dir, ids[1]!)).map(([ref, time]) => [ref, time]))
    const utc = (iso: string) => Date.parse(iso) / 1000
    expect(Object.fromEntries(at)).toEqual({
      t0: utc('2023-03-27T13:10:00Z'),
      t1: utc('2023-03-27T13:10:00Z'),
      t2: utc('2023-03-27T00:00:00Z'),
      t3: utc('2023-03-27T04:10:00Z'),
      t4: 1679922600,
      t5: 1679922600,
    })
    // Nothing went to the other persona.
    expect(await episodes(dir, ids[0]!)).toEqual([])
  })

  it('lists the personas there are when the one named is unknown', async () => {
    const { dir, ids } = await withPersonas(['Mika', 'Aoi'])
    const r = io()
    expect(await runCli(['memory', 'import', '--home', dir, '--persona', 'Nobody', 'x.jsonl'], r.cli)).toBe(2)
    expect(r.err).toEqual([
      `loomverse memory: no persona "Nobody"; the personas are: Aoi (${ids[1]}), Mika (${ids[0]})`,
    ])
  })

  it('reports each unreadable line by number, never its text, and exits 1 when any was skipped', async () => {
    const { dir, ids } = await withPersonas(['Mika'])
    const file = join(dir, 'mixed.jsonl')
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'a', speaker: 'Mika', text: 'fine', time: '2024-06-01T09:00:00Z' }),
        'password=hunter2 not json',
        JSON.stringify({ id: 'b', speaker: 'Mika', text: 'when?', time: 'hunter2 o’clock' }),
        JSON.stringify({ id: 'c', speaker: 'Mika', text: 'also fine', time: 'June 2, 2024' }),
      ].join('\n'),
    )
    const r = io()
    expect(await runCli(['memory', 'import', '--home', dir, '--persona', 'Mika', file, '--no-llm'], r.cli)).toBe(1)
    expect(r.err).toEqual([
      'Skipped line 2: not valid JSON',
      expect.stringMatching(/^Skipped line 3: time: cannot be read; use ISO 8601, /),
    ])
    expect(r.err.join('\n')).not.toContain('hunter2')
    expect(r.out).toEqual([`Imported 2 messages into Mika's memory; 2 lines could not be read`])
    expect((await episodes(dir, ids[0]!)).map(([ref]) => ref)).toEqual(['a', 'c'])
  })

  it('imports a LoCoMo JSON file: every turn at its session time, dia_id kept', async () => {
    const { dir, ids } = await withPersonas(['Mika'])
    const file = join(dir, 'conv.json')
    const sample = {
      sample_id: 'conv-x',
      conversation: {
        speaker_a: 'Caroline',
        speaker_b: 'Melanie',
        session_1_date_time: '1:56 pm on 8 May, 2023',
        session_1: [
          { speaker: 'Caroline', dia_id: 'D1:1', text: 'Hey Mel!' },
          { speaker: 'Melanie', dia_id: 'D1:2', text: 'Look at this.', blip_caption: 'a sunrise over a lake' },
        ],
        session_2_date_time: '10:37 am on 27 June, 2023',
        session_2: [{ speaker: 'Caroline', dia_id: 'D2:1', text: 'I joined a pottery class.' }],
      },
      qa: [],
    }
    writeFileSync(file, JSON.stringify([sample], null, 2))
    const r = io()
    expect(await runCli(['memory', 'import', '--home', dir, '--persona', ids[0]!, file, '--no-llm'], r.cli)).toBe(0)
    expect(r.out).toEqual([`Imported 3 messages into Mika's memory`])
    const may8 = Date.parse('2023-05-08T13:56:00Z') / 1000
    expect(await episodes(dir, ids[0]!)).toEqual([
      ['D1:1', may8, 'Caroline: Hey Mel!'],
      ['D1:2', may8 + 30, 'Melanie: Look at this. [shares a photo: a sunrise over a lake]'],
      ['D2:1', Date.parse('2023-06-27T10:37:00Z') / 1000, 'Caroline: I joined a pottery class.'],
    ])
  })

  it('imports a plain "speaker: text" transcript, taking times from [time] lines', async () => {
    const { dir, ids } = await withPersonas(['Mika'])
    const file = join(dir, 'chat.txt')
    writeFileSync(
      file,
      [
        '[2023-03-27 13:10]',
        'Aoi: Did you water the plants?',
        'Mika: Yes, this morning: all of them.',
        '',
        '[2:05 pm on 28 March, 2023] Aoi: Thanks!',
        'a line with no speaker',
      ].join('\r\n'),
    )
    const r = io()
    expect(await runCli(['memory', 'import', '--home', dir, '--persona', 'Mika', file, '--no-llm'], r.cli)).toBe(1)
    expect(r.err).toEqual(['Skipped line 6: expected "speaker: text"'])
    const at = Date.parse('2023-03-27T13:10:00Z') / 1000
    expect(await episodes(dir, ids[0]!)).toEqual([
      ['chat.txt#L2', at, 'Aoi: Did you water the plants?'],
      ['chat.txt#L3', at, 'Mika: Yes, this morning: all of them.'],
      ['chat.txt#L5', Date.parse('2023-03-28T14:05:00Z') / 1000, 'Aoi: Thanks!'],
    ])
  })

  it.skipIf(process.platform === 'win32')('refuses a FIFO at once instead of waiting on it', async () => {
    const { dir } = await withPersonas(['Mika'])
    const fifo = join(dir, 'pipe.jsonl')
    execFileSync('mkfifo', [fifo])
    const r = io()
    // A refused file, not a wrong command line: exit code 1.
    expect(await runCli(['memory', 'import', '--home', dir, '--persona', 'Mika', fifo, '--no-llm'], r.cli)).toBe(1)
    expect(r.err).toEqual([`loomverse memory: ${fifo}: is a FIFO (named pipe), not a regular file`])
  })
})
