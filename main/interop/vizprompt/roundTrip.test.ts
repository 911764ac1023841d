import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportVizprompt, importVizprompt } from './index'
import type { Core } from '../../core'
import {
  buildFlow,
  dump,
  readTree,
  regeneratedFirstExported,
  useVizprompt,
} from '../../../tests/support/vizpromptFixture'

const setup = useVizprompt()

describe('VizPrompt round trip', () => {
  it('export → import into a fresh home → export gives the same bytes and the same graph', async () => {
    const t = setup()
    const first = t.core('first')
    const { flowId, ids } = buildFlow(first, 1000)
    // A second flow sharing nodes with the first: each node is still written once.
    const other = first.graph.createFlow({ name: 'side', persona_id: 'persona-1' }).id
    first.graph.store.addMember(other, ids[10]!, { x: 1, y: 2 })
    first.graph.store.addMember(other, ids[20]!, null)
    first.graph.store.addEdge(other, ids[20]!, ids[10]!)
    // A named branch keeps its name through the files.
    first.graph.nameBranch({ flow_id: other, source_id: ids[20]!, target_id: ids[10]!, name: 'side road' })
    // A conversation that remembers only itself stays so when it comes back from the files.
    first.graph.updateFlow({ id: other, memory_private: true })
    // Why a reply failed travels with its node.
    first.db
      .prepare("UPDATE nodes SET status = 'error', error = ? WHERE id = ?")
      .run('timeout after 30 s & <no retry>\r\n  then ]]> gave up', ids[5])

    const a = t.path('export-a')
    expect(await exportVizprompt(first, { outDir: a })).toEqual({ outDir: a, flows: 2, nodes: 1000 })

    const second = t.core('second')
    const summary = await importVizprompt(second, a)
    expect(summary).toEqual({ flows: 2, nodes: 1000, removed: [], collisions: [], skipped: [] })

    const b = t.path('export-b')
    await exportVizprompt(second, { outDir: b })
    const before = readTree(a)
    const after = readTree(b)
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [path, bytes] of before) expect(after.get(path)!.equals(bytes), path).toBe(true)
    expect(dump(second)).toEqual(dump(first))

    // Branches and merges made it into the file as index pairs.
    const flowFile = readFileSync(join(a, 'flows', '00', '00.yaml'), 'utf8')
    for (const [from, to] of [
      [3, 8], // node #7 branches off node #2
      [9, 12], // node #11 merges #8 …
      [11, 12], // … and #10
    ]) {
      expect(flowFile).toContain(`  - from: ${from}\n    to: ${to}\n`)
    }
    expect(second.graph.getFlow(flowId).connections).toHaveLength(first.graph.getFlow(flowId).connections.length)
    expect(second.graph.getFlow(other).connections).toEqual([{ from: ids[20], to: ids[10], label: 'side road' }])
    expect(second.graph.getFlow(other).memory_private).toBe(true)
    expect(second.graph.getFlow(flowId).memory_private).toBe(false)
  }, 60_000)

  it("keeps a regenerated first message in its conversation's tree through export and import", async () => {
    const t = setup()
    const { source, first, again, next, dir } = await regeneratedFirstExported(t)
    const second = t.core('second')
    expect(await importVizprompt(second, dir)).toMatchObject({ flows: 1, nodes: 4 })
    // Memory still takes the answer the new version replaced for another branch of this
    // conversation (never remembered), not for another conversation.
    const rootsIn = (core: Core) => core.graph.nodeTrees([again, next])
    expect(rootsIn(second).get(next)!.roots).toEqual(new Set([first]))
    expect(rootsIn(second)).toEqual(rootsIn(source))
    expect(dump(second)).toEqual(dump(source))
  })

  it('writes the seed layout: maps, tags, index and a config without keys', async () => {
    const t = setup()
    const core = t.core()
    const { ids } = buildFlow(core, 3)
    const out = t.path('export')
    await exportVizprompt(core, { outDir: out })
    expect([...readTree(out).keys()].sort()).toEqual([
      'config.yaml',
      'flows/00/00.yaml',
      'metadata/flow_map.tsv',
      'metadata/index.yaml',
      'metadata/node_map.tsv',
      'metadata/tags.yaml',
      'nodes/00/00.xml',
      'nodes/00/01.xml',
      'nodes/00/02.xml',
    ])
    const text = (p: string) => readFileSync(join(out, p), 'utf8')
    expect(text('metadata/node_map.tsv').split('\n')[0]).toBe('relpath\tuuid\ttimestamp')
    expect(text('metadata/node_map.tsv').split('\n')[1]).toBe(`00/00.xml\t${ids[0]}\t2025-05-09T09:00:00.000000+09:00`)
    expect(text('metadata/flow_map.tsv')).toMatch(/^flow_id\tfolder\tfilename\n[0-9a-f-]{36}\t00\t00\.yaml\n$/)
    expect(text('metadata/tags.yaml')).toContain(`tags:\n  code:\n    - ${ids[0]}\n  旅行:\n    - ${ids[0]}\n`)
    expect(text('metadata/index.yaml')).toContain(
      `nodes:\n  ${ids[0]}:\n    timestamp: 2025-05-09T09:00:00.000000+09:00\n    keywords: 旅行,code\n`,
    )
    const config = text('config.yaml')
    expect(config).toMatch(/^version: "1\.0"\ncreated: /)
    expect(config).toContain('max_files_per_folder: 256')
    expect(config).toContain('api_key_env: OPENAI_API_KEY')
    expect(config).not.toMatch(/api_key:|sk-/)
  })

  it('spills node #256 and later into folder 01', async () => {
    const t = setup()
    const core = t.core()
    const { ids } = buildFlow(core, 300)
    const out = t.path('export')
    await exportVizprompt(core, { outDir: out })
    const files = [...readTree(out).keys()].filter((p) => p.startsWith('nodes/'))
    expect(files).toHaveLength(300)
    expect(files.filter((p) => p.startsWith('nodes/00/'))).toHaveLength(256)
    expect(files).toContain('nodes/00/ff.xml')
    expect(files).toContain('nodes/01/00.xml')
    expect(files).toContain('nodes/01/2b.xml')
    expect(readFileSync(join(out, 'nodes/01/00.xml'), 'utf8')).toContain(`<node id="${ids[256]}"`)
    expect(readFileSync(join(out, 'metadata/node_map.tsv'), 'utf8')).toContain(`\n01/00.xml\t${ids[256]}\t`)
  })
})
