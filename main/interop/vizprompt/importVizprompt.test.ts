import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FlowPatch } from '@shared/contract'
import type { Core } from '../../core'
import { exportVizprompt, importVizprompt, VizpromptError } from './index'
import {
  buildFlow,
  dump,
  readTree,
  regeneratedFirstExported,
  useVizprompt,
  type Fixture,
} from '../../../tests/support/vizpromptFixture'

const setup = useVizprompt()

/** A small exported flow (nodes #0–#4) and an empty core to import it into. */
async function exported(t: Fixture, count = 5): Promise<{ source: Core; ids: string[]; dir: string }> {
  const source = t.core('source')
  const { ids } = buildFlow(source, count)
  const dir = t.path('export')
  await exportVizprompt(source, { outDir: dir })
  return { source, ids, dir }
}

function edit(dir: string, file: string, change: (text: string) => string): void {
  const path = join(dir, file)
  writeFileSync(path, change(readFileSync(path, 'utf8')))
}

function copyNode(dir: string, from: string, to: string, change: (text: string) => string): void {
  mkdirSync(join(dir, 'nodes', to.split('/')[0]!), { recursive: true })
  writeFileSync(join(dir, 'nodes', to), change(readFileSync(join(dir, 'nodes', from), 'utf8')))
}

const withTime = (timestamp: string, prompt: string) => (xml: string) =>
  xml
    .replace(/timestamp="[^"]+"/, `timestamp="${timestamp}"`)
    .replace(/<prompt>[\s\S]*?<\/prompt>/, `<prompt><![CDATA[\n${prompt}\n]]></prompt>`)

/** Imports `dir` into `core` expecting a refusal; returns it, after checking nothing changed. */
async function refused(core: Core, dir: string): Promise<VizpromptError> {
  const before = dump(core)
  const error = await importVizprompt(core, dir).then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(VizpromptError)
  expect(dump(core)).toEqual(before)
  return error as VizpromptError
}

describe('a large export', () => {
  it('is written in slices, other calls answered between them, its flow shown only once whole', async () => {
    const t = setup()
    const { ids, dir } = await exported(t, 600)
    const target = t.core('target')
    const kept = target.graph.createFlow({ name: 'kept' }).id
    const seen: Array<{ written: number; listed: string[] }> = []
    const summary = await importVizprompt(target, dir, {
      sliceMs: 0, // slices as small as they get (8 rows): the test does not depend on the machine's speed
      onProgress: (written) =>
        setImmediate(() => seen.push({ written, listed: target.graph.listFlows().map((f) => f.id) })),
    })
    expect(seen.length).toBeGreaterThan(5)
    for (const s of seen) expect(s.listed).toEqual([kept])
    expect(summary).toMatchObject({ flows: 1, nodes: 600 })
    const flow = target.graph.listFlows().find((f) => f.id !== kept)!
    expect(
      target.graph
        .loadFlow(flow.id)
        .nodes.map((n) => n.id)
        .sort(),
    ).toEqual([...ids].sort())
  })

  it('leaves nothing of a new flow when a slice fails', async () => {
    const t = setup()
    const { dir } = await exported(t, 300)
    const target = t.core('target')
    const before = dump(target)
    // The 200th row's insert fails as a full disk or a constraint would.
    target.db.exec(`CREATE TEMP TRIGGER fail_late BEFORE INSERT ON flow_nodes
      WHEN (SELECT count(*) FROM flow_nodes) >= 200 BEGIN SELECT RAISE(ABORT, 'disk full'); END`)
    await expect(importVizprompt(target, dir, { sliceMs: 0 })).rejects.toThrow('disk full')
    target.db.exec('DROP TRIGGER fail_late')
    expect(dump(target)).toEqual(before)
  })
})

describe('UUID collisions (seed §4.3)', () => {
  it('uses the newest of three files with one id and reports the others by rank', async () => {
    const t = setup()
    const { ids, dir } = await exported(t)
    copyNode(dir, '00/01.xml', '00/10.xml', withTime('2030-01-01T00:00:00.000+09:00', 'newest'))
    copyNode(dir, '00/01.xml', '05/00.xml', withTime('2029-01-01T00:00:00.000+09:00', 'middle'))
    const target = t.core('target')
    const summary = await importVizprompt(target, dir)
    expect(summary.collisions).toEqual([{ id: ids[1], chosen: '00/10.xml', candidates: ['05/00.xml', '00/01.xml'] }])
    expect(summary.nodes).toBe(5)
    expect(target.graph.getNode(ids[1]!).prompt).toBe('newest')
  })

  it('on equal timestamps uses the file later in directory order', async () => {
    const t = setup()
    const { ids, dir } = await exported(t)
    const same = readFileSync(join(dir, 'nodes/00/01.xml'), 'utf8').match(/timestamp="([^"]+)"/)![1]!
    copyNode(dir, '00/01.xml', '05/00.xml', withTime(same, 'last in order'))
    copyNode(dir, '00/01.xml', '00/10.xml', withTime(same, 'middle in order'))
    const target = t.core('target')
    const summary = await importVizprompt(target, dir)
    expect(summary.collisions).toEqual([{ id: ids[1], chosen: '05/00.xml', candidates: ['00/10.xml', '00/01.xml'] }])
    expect(target.graph.getNode(ids[1]!).prompt).toBe('last in order')
  })

  it('compares times across offsets and beyond milliseconds', async () => {
    const t = setup()
    const { ids, dir } = await exported(t)
    // 09:00:00.0000005+09:00 is half a microsecond after 00:00:00Z.
    copyNode(dir, '00/01.xml', '00/10.xml', withTime('2031-01-01T00:00:00.000000+00:00', 'earlier'))
    copyNode(dir, '00/01.xml', '00/11.xml', withTime('2031-01-01T09:00:00.0000005+09:00', 'later'))
    const target = t.core('target')
    await importVizprompt(target, dir)
    expect(target.graph.getNode(ids[1]!).prompt).toBe('later')
  })
})

describe('importing over existing data', () => {
  it('keeps what is as new, takes what is newer, and reports both', async () => {
    const t = setup()
    const { source, ids, dir } = await exported(t)
    const again = await importVizprompt(source, dir)
    expect(again).toMatchObject({ flows: 0, nodes: 0 })
    expect(again.skipped).toHaveLength(6)
    expect(again.skipped.find((s) => s.kind === 'flow')?.reason).toMatch(/^the database has it updated /)
    expect(again.skipped.find((s) => s.id === ids[0])).toEqual({
      kind: 'node',
      id: ids[0],
      file: 'nodes/00/00.xml',
      reason: 'the database has it from 2025-05-09T09:00:00.000000+09:00',
    })

    edit(dir, 'nodes/00/02.xml', withTime('2030-01-01T00:00:00+09:00', 'edited elsewhere'))
    edit(dir, 'nodes/00/03.xml', withTime('2001-01-01T00:00:00+09:00', 'stale copy'))
    const events: string[] = []
    source.bus.listen((event) => events.push(event))
    const mixed = await importVizprompt(source, dir)
    expect(mixed.nodes).toBe(1)
    expect(source.graph.getNode(ids[2]!).prompt).toBe('edited elsewhere')
    expect(source.graph.getNode(ids[3]!).prompt).not.toBe('stale copy')
    expect(mixed.skipped.find((s) => s.id === ids[3])?.reason).toMatch(/the database has it from/)
    expect(events).toEqual(['node_updated'])
  })

  it('replaces a flow the export has a newer version of, dropping nodes it no longer holds', async () => {
    const t = setup()
    const { source, ids, dir } = await exported(t)
    const flowFile = 'flows/00/00.yaml'
    edit(dir, flowFile, (y) =>
      y
        .replace(/^updated: .*$/m, 'updated: 2099-01-01T00:00:00+09:00')
        .replace(/ {2}- index: 5\n {4}id: .*\n/, '')
        .replace('  - from: 4\n    to: 5\n', ''),
    )
    const announced: FlowPatch[] = []
    source.bus.listen((event, data) => {
      if (event === 'flow_changed') announced.push(data as FlowPatch)
    })
    const summary = await importVizprompt(source, dir)
    expect(summary).toMatchObject({ flows: 1, removed: [ids[4]] })
    const flow = source.graph.getFlow(source.graph.listFlows()[0]!.id)
    expect(flow.nodes.map((m) => m.id)).toEqual(ids.slice(0, 4))
    expect(flow.updated).toBe('2099-01-01T00:00:00+09:00')
    // Open windows are told, once, to read the flow as the import left it.
    await new Promise((resolve) => setImmediate(resolve))
    expect(announced).toMatchObject([{ flow_id: flow.id, whole: true, flow: { updated: flow.updated } }])
  })
})

describe("a first message's other versions (version_of)", () => {
  it('come back as versions; from an export made before them, as conversations of their own, as then', async () => {
    const t = setup()
    const { first, again, next, dir } = await regeneratedFirstExported(t)
    const withField = t.core('with')
    await importVizprompt(withField, dir)
    expect(withField.graph.nodeTrees([next]).get(next)!.roots).toEqual(new Set([first]))

    const flowFile = join(dir, 'flows/00/00.yaml')
    const current = readFileSync(flowFile, 'utf8')
    writeFileSync(flowFile, current.replace(/^ {4}version_of: .*\n/m, ''))
    const older = t.core('older')
    expect(await importVizprompt(older, dir)).toMatchObject({ flows: 1, nodes: 4, skipped: [] })
    expect(older.graph.nodeTrees([again]).get(again)!.roots).toEqual(new Set([again]))
    expect(dump(older).flows[0]!.alternatives).toEqual([])

    // A newer export of that flow puts the version back, and memory reads its tree again.
    writeFileSync(flowFile, current.replace(/^updated: .*$/m, 'updated: 2099-01-01T00:00:00+09:00'))
    expect(await importVizprompt(older, dir)).toMatchObject({ flows: 1 })
    expect(older.graph.nodeTrees([again]).get(again)!.roots).toEqual(new Set([first]))
  })

  it('replace what the database has when the export holds a newer version of the flow', async () => {
    const t = setup()
    const { source, flowId, first, below, again, dir } = await regeneratedFirstExported(t)
    // The file's version has the turn after the original answered again as well.
    const belowIndex = source.graph.getFlow(flowId).nodes.find((m) => m.id === below)!.index
    edit(dir, 'flows/00/00.yaml', (y) =>
      y
        .replace(/^updated: .*$/m, 'updated: 2099-01-01T00:00:00+09:00')
        .replace(/^ {4}version_of: .*\n/m, '')
        .replace(`  - from: 1\n    to: ${belowIndex}\n`, '')
        .replace(`    id: ${below}\n`, `    id: ${below}\n    version_of: ${first}\n`),
    )
    await importVizprompt(source, dir)
    expect(source.graph.rootAlternatives(flowId)).toEqual([{ node_id: below, of_node_id: first }])
    expect(source.graph.nodeTrees([again]).get(again)!.roots).toEqual(new Set([again]))
    expect(source.graph.nodeTrees([below]).get(below)!.roots).toEqual(new Set([first]))
  })

  it('are refused naming the line when one is its own, round through others, or not an id', async () => {
    const t = setup()
    const { first, again, dir } = await regeneratedFirstExported(t)
    const target = t.core('target')
    const flowFile = 'flows/00/00.yaml'
    const original = readFileSync(join(dir, flowFile), 'utf8')
    const lineOf = (text: string, line: string) => text.split('\n').indexOf(line) + 1
    const write = (text: string) => writeFileSync(join(dir, flowFile), text)

    const itself = original.replace(`version_of: ${first}`, `version_of: ${again}`)
    write(itself)
    expect((await refused(target, dir)).message).toBe(
      `${flowFile}:${lineOf(itself, `    version_of: ${again}`)}: node 3 is given as another version of itself`,
    )
    const round = original.replace(`    id: ${first}\n`, `    id: ${first}\n    version_of: ${again}\n`)
    write(round)
    expect((await refused(target, dir)).message).toBe(
      `${flowFile}:${lineOf(round, `    version_of: ${again}`)}: version_of goes round through nodes 1, 3`,
    )
    const notId = original.replace(`version_of: ${first}`, 'version_of: 1')
    write(notId)
    expect((await refused(target, dir)).message).toMatch(
      new RegExp(`^${flowFile}:${lineOf(notId, '    version_of: 1')}: nodes\\.2\\.version_of: `),
    )
  })
})

describe('refusing bad input, importing nothing', () => {
  it('reports malformed XML with file and line', async () => {
    const t = setup()
    const { dir } = await exported(t)
    edit(dir, 'nodes/00/03.xml', (x) => x.replace('</model>', '</modle>'))
    const target = t.core('target')
    buildFlow(target, 2, 'already here')
    const e = await refused(target, dir)
    const line =
      readFileSync(join(dir, 'nodes/00/03.xml'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('</modle>')) + 1
    expect(e.message).toMatch(new RegExp(`^nodes/00/03\\.xml:${line}: Expected closing tag 'model'`))
  })

  it('refuses a DOCTYPE or entity declaration', async () => {
    const t = setup()
    const { dir } = await exported(t)
    edit(dir, 'nodes/00/04.xml', (x) =>
      x.replace('<node', '<!DOCTYPE node [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n<node'),
    )
    const e = await refused(t.core('target'), dir)
    expect(e.message).toBe('nodes/00/04.xml:2: DOCTYPE and ENTITY declarations are not allowed')
  })

  it('refuses a node file named in node_map.tsv that is missing', async () => {
    const t = setup()
    const { dir } = await exported(t)
    rmSync(join(dir, 'nodes/00/02.xml'))
    const e = await refused(t.core('target'), dir)
    expect(e.message).toBe('metadata/node_map.tsv:4: nodes/00/02.xml is listed but missing')
  })

  it('refuses a flow file that is missing', async () => {
    const t = setup()
    const { dir } = await exported(t)
    rmSync(join(dir, 'flows/00/00.yaml'))
    const e = await refused(t.core('target'), dir)
    expect(e.message).toBe('metadata/flow_map.tsv:2: flows/00/00.yaml is listed but missing')
  })

  it('refuses a connection to an unknown node index, naming the line', async () => {
    const t = setup()
    const { dir } = await exported(t)
    edit(dir, 'flows/00/00.yaml', (y) => y.replace('  - from: 4\n    to: 5\n', '  - from: 4\n    to: 99\n'))
    const e = await refused(t.core('target'), dir)
    const line = readFileSync(join(dir, 'flows/00/00.yaml'), 'utf8').split('\n').indexOf('    to: 99') + 1
    expect(e.message).toBe(`flows/00/00.yaml:${line}: connection to 99: no node has index 99`)
  })

  it('refuses a cycle', async () => {
    const t = setup()
    const { dir } = await exported(t)
    edit(dir, 'flows/00/00.yaml', (y) => `${y}  - from: 5\n    to: 2\n`)
    const e = await refused(t.core('target'), dir)
    expect(e.message).toMatch(/^flows\/00\/00\.yaml:\d+: the connections form a cycle through nodes 2, 3, 4, 5$/)
  })

  it('refuses malformed YAML, YAML aliases and a flow naming a node that has no file', async () => {
    const t = setup()
    const { dir, ids } = await exported(t)
    const target = t.core('target')
    const original = readFileSync(join(dir, 'flows/00/00.yaml'), 'utf8')
    writeFileSync(join(dir, 'flows/00/00.yaml'), original.replace('nodes:', 'nodes: [oops'))
    expect((await refused(target, dir)).message).toMatch(/^flows\/00\/00\.yaml:\d+: /)
    writeFileSync(
      join(dir, 'flows/00/00.yaml'),
      original.replace(/^description: .*$/m, 'description: &d x\npersona_id: *d'),
    )
    expect((await refused(target, dir)).message).toBe('flows/00/00.yaml:6: YAML aliases (*d) are not allowed')
    writeFileSync(join(dir, 'flows/00/00.yaml'), original)
    rmSync(join(dir, 'nodes/00/04.xml'))
    edit(dir, 'metadata/node_map.tsv', (m) => m.replace(/00\/04\.xml.*\n/, ''))
    expect((await refused(target, dir)).message).toMatch(
      new RegExp(`^flows/00/00\\.yaml:\\d+: node ${ids[4]} \\(index 5\\) has no file in nodes/$`),
    )
  })

  it('refuses a folder that is not an export, and a map pointing outside its folder', async () => {
    const t = setup()
    const target = t.core('target')
    const empty = t.path('empty')
    mkdirSync(empty)
    expect((await refused(target, empty)).message).toBe('config.yaml: is missing; is this a VizPrompt export folder?')
    const { dir } = await exported(t)
    edit(dir, 'metadata/node_map.tsv', (m) => `${m}../../evil.xml\tx\ty\n`)
    expect((await refused(target, dir)).message).toBe(
      'metadata/node_map.tsv:7: "../../evil.xml" is not a folder/file.xml path',
    )
  })
})

describe('export target folder', () => {
  it('refuses a folder holding something else, and replaces a previous export keeping .git', async () => {
    const t = setup()
    const { source, dir } = await exported(t)
    const other = t.path('other')
    mkdirSync(other)
    writeFileSync(join(other, 'notes.txt'), 'mine')
    await expect(exportVizprompt(source, { outDir: other })).rejects.toThrow(
      /is not empty and holds no VizPrompt export/,
    )
    expect(readTree(other).size).toBe(1)

    mkdirSync(join(dir, '.git'))
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n')
    const flowId = source.graph.listFlows()[0]!.id
    const last = source.graph.getFlow(flowId).nodes.at(-1)!.id
    source.graph.deleteNode({ id: last, flow_id: flowId })
    await exportVizprompt(source, { outDir: dir })
    const files = [...readTree(dir).keys()]
    expect(files).toContain('.git/HEAD')
    expect(files).not.toContain('nodes/00/04.xml')
    expect(files.filter((f) => f.startsWith('nodes/'))).toHaveLength(4)
    // No staging or trash folder is left beside it.
    expect(readdirSync(t.path('')).filter((name) => name.startsWith('.export.'))).toEqual([])
  })
})
