import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { version } from '../package.json'
import { runCli } from './cli'
import { appSchema } from './appSchema'
import { totalSteps } from './db/domainMigrations'
import { startCore } from './core'
import { useTempHome } from '../tests/support/tempHome'
import { ask, openWs } from '../tests/support/wsProbe'
import { cliIo } from '../tests/support/cliIo'

const home = useTempHome()

describe('loomverse CLI', () => {
  it('prints its version and help', async () => {
    const v = cliIo()
    expect(await runCli(['--version'], v.cli)).toBe(0)
    expect(v.out).toEqual([version])
    const h = cliIo()
    expect(await runCli(['--help'], h.cli)).toBe(0)
    expect(h.out.join('\n')).toMatch(/loomverse serve \[--port N\] \[--home DIR\] \[--token T\]/)
    for (const command of ['create-node', 'search', 'export', 'import'])
      expect(h.out.join('\n')).toContain(`loomverse ${command} `)
  })

  it('exits 2 with a clear message for an unknown command, flag or bad port', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['serve', '--colour'], /Unknown option '--colour'/],
      [['serve', '--port', 'eighty'], /--port must be an integer from 0 to 65535, got "eighty"/],
      [['serve', '--port', '70000'], /--port must be an integer/],
      [['serve', '--token', 'short'], /--token must be at least 16 characters/],
      [['serve', '--token', 'has spaces in it 0123456789'], /--token may hold only letters, digits/],
      [['token', '--port', '1'], /--port does not apply to token/],
    ]
    for (const [argv, message] of cases) {
      const r = cliIo()
      expect(await runCli(argv, r.cli)).toBe(2)
      expect(r.err.join('\n')).toMatch(message)
    }
  })

  it('serve prints the URL with the real port and token, answers on it, and stops cleanly', async () => {
    const dir = home()
    const r = cliIo(async (out) => {
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

  it('token prints the running host’s address, and --new renews it there; with no host, the next start takes the new one', async () => {
    const dir = home()
    const r = cliIo(async (out) => {
      const url = out.find((l) => l.startsWith('Loomverse is running at '))!.slice('Loomverse is running at '.length)
      const shown = cliIo()
      expect(await runCli(['token', '--home', dir], shown.cli)).toBe(0)
      expect(shown.out).toEqual([`Loomverse is running at ${url}`])
      const renewed = cliIo()
      expect(await runCli(['token', '--new', '--home', dir], renewed.cli)).toBe(0)
      const next = new URL(renewed.out[0]!.slice('Loomverse is running at '.length))
      expect(next.searchParams.get('token')).not.toBe('pinned-token-0123456789')
      expect(await openWs(`ws://127.0.0.1:${next.port}/ws?token=pinned-token-0123456789`)).toEqual({ refused: 401 })
      const ws = await openWs(`ws://127.0.0.1:${next.port}/ws?token=${next.searchParams.get('token')}`)
      if ('refused' in ws) throw new Error('the new token was refused')
      ws.close()
    })
    expect(await runCli(['serve', '--home', dir, '--port', '0', '--token', 'pinned-token-0123456789'], r.cli)).toBe(0)

    const offline = cliIo()
    expect(await runCli(['token', '--new', '--home', dir], offline.cli)).toBe(0)
    expect(offline.out.join('\n')).toMatch(/A new token is kept/)
    const kept = readFileSync(join(dir, 'browser-token'), 'utf8').trim()
    const again = cliIo(async (out) => {
      expect(out.find((l) => l.startsWith('Loomverse is running at '))).toContain(`?token=${kept}`)
    })
    expect(await runCli(['serve', '--home', dir, '--port', '0'], again.cli)).toBe(0)
  })

  it('refuses to serve a data folder written by a newer Loomverse, exiting 1 with the reason', async () => {
    const dir = home()
    const first = cliIo(async () => {})
    expect(await runCli(['serve', '--home', dir, '--port', '0'], first.cli)).toBe(0)
    const db = new Database(join(dir, 'loomverse.db'))
    db.pragma('user_version = 42')
    db.close()
    const second = cliIo(async () => {
      throw new Error('must not start serving')
    })
    expect(await runCli(['serve', '--home', dir, '--port', '0'], second.cli)).toBe(1)
    expect(second.err.join('\n')).toMatch(
      new RegExp(`loomverse\\.db has schema version 42, but this Loomverse knows only up to ${totalSteps(appSchema)}`),
    )
  })

  it('serves on 8080 by default, and says so when that port is taken', async () => {
    // Whether this test or another program holds 8080, serve must refuse it with the port's name.
    const holder = createServer()
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve())
      holder.listen(8080, '127.0.0.1', () => resolve())
    })
    try {
      const r = cliIo(async () => {
        throw new Error('must not start serving')
      })
      expect(await runCli(['serve', '--home', home()], r.cli)).toBe(1)
      expect(r.err.join('\n')).toMatch(/port 8080 is in use .*--port 0 for any free one/)
    } finally {
      await new Promise<void>((resolve) => (holder.listening ? holder.close(() => resolve()) : resolve()))
    }
  })

  it('reads the token from LOOMVERSE_TOKEN and the home from LOOMVERSE_HOME', async () => {
    const dir = home()
    const r = cliIo(async (out) => {
      expect(out[0]).toMatch(/\?token=env-token-0123456789abcdef$/)
      expect(out[1]).toContain(dir)
    })
    r.cli.env = { LOOMVERSE_TOKEN: 'env-token-0123456789abcdef', LOOMVERSE_HOME: dir }
    expect(await runCli(['serve', '--port', '0'], r.cli)).toBe(0)
  })
})

/** Runs one command to completion; returns its exit code and what it printed. */
async function run(...argv: string[]) {
  const r = cliIo()
  const code = await runCli(argv, r.cli)
  return { code, out: r.out, err: r.err.join('\n') }
}

/** Text files in a scratch folder of the temp home. */
function files(contents: Record<string, string>): Record<string, string> {
  const dir = join(home(), 'input')
  mkdirSync(dir, { recursive: true })
  return Object.fromEntries(
    Object.entries(contents).map(([name, text]) => {
      writeFileSync(join(dir, name), text)
      return [name, join(dir, name)]
    }),
  )
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/

describe('loomverse graph commands', () => {
  it('create-node makes the flow "main", then a child with --parent, and prints each id', async () => {
    const data = join(home(), 'data')
    const f = files({ 'q1.txt': '京都はどこ？\n', 'a1.txt': '日本です。', 'q2.txt': 'And Osaka?', 'a2.txt': 'Nearby.' })
    const first = await run(
      'create-node',
      '--prompt-file',
      f['q1.txt']!,
      '--response-file',
      f['a1.txt']!,
      '--home',
      data,
      '--tags',
      '旅行, 地理',
    )
    expect(first).toMatchObject({ code: 0, err: '' })
    expect(first.out).toEqual([expect.stringMatching(new RegExp(`^Created node: ${UUID.source}$`))])
    const rootId = first.out[0]!.slice('Created node: '.length)
    const second = await run(
      'create-node',
      '--home',
      data,
      '--prompt-file',
      f['q2.txt']!,
      '--response-file',
      f['a2.txt']!,
      '--parent',
      rootId,
    )
    expect(second.code).toBe(0)
    const childId = second.out[0]!.slice('Created node: '.length)

    const core = startCore({ home: data, mode: 'browser' })
    try {
      const [flow] = core.graph.listFlows()
      expect(flow).toMatchObject({ name: 'main', node_count: 2 })
      expect(core.graph.getFlow(flow!.id).connections).toEqual([{ from: rootId, to: childId }])
      expect(core.graph.getNode(rootId)).toMatchObject({ prompt: '京都はどこ？\n', response: '日本です。' })
      expect(core.graph.getNode(rootId).metadata.tags).toEqual(['旅行', '地理'])
    } finally {
      await core.dispose()
    }
  })

  it('search prints id, flow and excerpt per hit, by tags, keywords and flow', async () => {
    const data = join(home(), 'data')
    const f = files({
      'q.txt': 'Tell me about the Kamo river',
      'a.txt': 'It runs through Kyoto.',
      'q2.txt': 'Unrelated',
      'a2.txt': '…',
    })
    const made = await run(
      'create-node',
      '--home',
      data,
      '--prompt-file',
      f['q.txt']!,
      '--response-file',
      f['a.txt']!,
      '--flow',
      'travel',
      '--tags',
      'kyoto',
    )
    const id = made.out[0]!.slice('Created node: '.length)
    await run(
      'create-node',
      '--home',
      data,
      '--prompt-file',
      f['q2.txt']!,
      '--response-file',
      f['a2.txt']!,
      '--tags',
      'other',
    )

    const byTag = await run('search', '--home', data, '--tags', 'kyoto')
    expect(byTag).toMatchObject({ code: 0, out: [`${id}\ttravel\tTell me about the Kamo river`] })
    const byKeyword = await run('search', '--home', data, '--keywords', 'Kyoto', '--flow', 'travel')
    expect(byKeyword.out).toEqual([`${id}\ttravel\tIt runs through ⟦Kyoto⟧.`])
    const none = await run('search', '--home', data, '--tags', 'kyoto', '--flow', 'main')
    expect(none).toMatchObject({ code: 0, out: [], err: 'No matching nodes.' })
    const unknown = await run('search', '--home', data, '--tags', 'kyoto', '--flow', 'nowhere')
    expect(unknown).toMatchObject({ code: 1, err: 'loomverse search: no flow named "nowhere"' })
  })

  it('export and import move a flow between data folders, reporting what was skipped', async () => {
    const data = join(home(), 'data')
    const f = files({ 'q.txt': 'CDATA ]]> survives\r\n', 'a.txt': 'yes' })
    await run('create-node', '--home', data, '--prompt-file', f['q.txt']!, '--response-file', f['a.txt']!)
    const out = join(home(), 'export')
    const exported = await run('export', '--home', data, '--format', 'vizprompt', '--out', out, '--flow', 'main')
    expect(exported).toMatchObject({ code: 0, out: [`Exported 1 nodes in 1 flows to ${out}`] })

    const other = join(home(), 'other')
    const imported = await run('import', '--home', other, '--format', 'vizprompt', out)
    expect(imported).toMatchObject({ code: 0, out: [`Imported 1 nodes and 1 flows from ${out}`] })
    const again = await run('import', '--home', other, out)
    expect(again.out[0]).toBe(`Imported 0 nodes and 0 flows from ${out}`)
    expect(again.out.slice(1)).toEqual([
      expect.stringMatching(/^Skipped flow .* \(flows\/00\/00\.yaml\): the database has it updated /),
      expect.stringMatching(/^Skipped node .* \(nodes\/00\/00\.xml\): the database has it from /),
    ])

    const core = startCore({ home: other, mode: 'browser' })
    try {
      const [node] = core.graph.loadFlow(core.graph.listFlows()[0]!.id).nodes
      expect(node?.prompt).toBe('CDATA ]]> survives\r\n')
    } finally {
      await core.dispose()
    }
  })

  it('import reports a damaged export with file and line and exits 1', async () => {
    const data = join(home(), 'data')
    const f = files({ 'q.txt': 'q', 'a.txt': 'a' })
    await run('create-node', '--home', data, '--prompt-file', f['q.txt']!, '--response-file', f['a.txt']!)
    const out = join(home(), 'export')
    await run('export', '--home', data, '--out', out)
    writeFileSync(join(out, 'nodes', '00', '00.xml'), '<?xml version="1.0"?>\n<node>\n<prompt>\n</node>\n')
    const r = await run('import', '--home', join(home(), 'other'), out)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/^loomverse import: nodes\/00\/00\.xml:4: Expected closing tag 'prompt'/)
  })

  it('create-node takes the texts on the command line (seed §12.1) and adds to the same "main"', async () => {
    const data = join(home(), 'data')
    const first = await run('create-node', '--home', data, '--prompt', '質問内容', '--response', '回答内容')
    expect(first).toMatchObject({ code: 0, err: '' })
    const second = await run('create-node', '--home', data, '--prompt', 'q2', '--response', '')
    expect(second.code).toBe(0)
    const core = startCore({ home: data, mode: 'browser' })
    try {
      expect(core.graph.listFlows()).toMatchObject([{ name: 'main', node_count: 2 }])
      const id = first.out[0]!.slice('Created node: '.length)
      expect(core.graph.getNode(id)).toMatchObject({ prompt: '質問内容', response: '回答内容' })
    } finally {
      await core.dispose()
    }
  })

  it('exits 1 naming a missing input file, and 2 for a wrong command line', async () => {
    const data = join(home(), 'data')
    const f = files({ 'a.txt': 'a' })
    const missing = join(home(), 'nope.txt')
    const r = await run('create-node', '--home', data, '--prompt-file', missing, '--response-file', f['a.txt']!)
    expect(r).toMatchObject({
      code: 1,
      err: `loomverse create-node: cannot read the prompt file "${missing}": no such file`,
    })
    expect(await run('import', '--home', data, join(home(), 'no-such-export'))).toMatchObject({
      code: 1,
      err: expect.stringMatching(/no-such-export: no such folder$/),
    })

    const cases: Array<[string[], RegExp]> = [
      [
        ['create-node', '--response-file', f['a.txt']!],
        /loomverse create-node: --prompt TEXT or --prompt-file F is required/,
      ],
      [
        ['create-node', '--prompt', 'q', '--prompt-file', f['a.txt']!, '--response', 'a'],
        /loomverse create-node: give --prompt or --prompt-file, not both/,
      ],
      [
        ['create-node', '--prompt-file', f['a.txt']!, '--response-file', f['a.txt']!, '--parent', 'x'],
        /parent_ids\.0: Invalid UUID/,
      ],
      [['search'], /loomverse search: give --tags, --keywords or both/],
      [['search', '--tags', 'a', '--port', '80'], /loomverse search: --port does not apply to search/],
      [['export', '--out', 'x', '--format', 'markdown'], /--out does not apply/],
      [
        ['export', '--out', 'x', '--format', 'pdf'],
        /--format must be "vizprompt", or "markdown" to export, or "chatgpt" or "card" to import; got "pdf"/,
      ],
      [['export', '--format', 'markdown'], /--flow NAME is required/],
      [['story', 'init', 'x', '--template', 'space'], /--template must be blank, fantasy or school/],
      [['story', 'play', 'x'], /unknown story command "play"/],
      [['export'], /loomverse export: --out DIR is required/],
      [['import'], /loomverse import: missing DIR/],
      [['import', 'a', 'b'], /loomverse import: unexpected argument "b"/],
      [['export', '--out'], /Option '--out <value>' argument missing/],
    ]
    for (const [argv, message] of cases) {
      const bad = await run('--home', data, ...argv)
      expect(bad.code, argv.join(' ')).toBe(2)
      expect(bad.err).toMatch(message)
    }
  })

  it('story init makes a project; export --format markdown writes the story’s path under its exports/', async () => {
    const data = join(home(), 'data')
    const made = await run('story', 'init', '霧の国', '--home', data, '--template', 'fantasy', '--language', 'ja')
    expect(made).toMatchObject({ code: 0, err: '' })
    expect(made.out[0]).toMatch(/Created story "霧の国" in .*scenarios.霧の国$/)
    expect(readFileSync(join(data, 'scenarios', '霧の国', 'scenario', '00_world_setting.md'), 'utf8')).toContain(
      'アステル',
    )

    const exported = await run('export', '--home', data, '--format', 'markdown', '--flow', '霧の国')
    expect(exported.code).toBe(0)
    const file = exported.out[0]!.replace(/^Exported 1 turns to /, '')
    expect(file).toMatch(/scenarios.霧の国.exports.霧の国-\d{8}-\d{6}\.md$/)
    expect(readFileSync(file, 'utf8')).toMatch(/^# 霧の国\n\n国境の森/)

    const again = await run('story', 'init', '霧の国', '--home', data)
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/exists already/) })
    const card = files({
      'aqua.json': JSON.stringify({ name: 'Aqua', description: 'A goddess.', first_mes: 'Hello!' }),
    })
    const imported = await run('import', '--home', data, '--format', 'card', card['aqua.json']!)
    expect(imported).toMatchObject({ code: 0, out: ['Imported the v1 card "Aqua" as a persona (1 greetings)'] })
    const hostile = await run('story', 'init', 'CON', '--home', data)
    expect(hostile).toMatchObject({ code: 2, err: expect.stringMatching(/reserved by Windows/) })
  })
})
