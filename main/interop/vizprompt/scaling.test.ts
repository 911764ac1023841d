import { randomUUID } from 'node:crypto'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { XMLValidator } from 'fast-xml-parser'
import { describe, expect, it, vi } from 'vitest'
import { parseDocument, stringify } from 'yaml'
import type { Core } from '../../core'
import { exportVizprompt, importVizprompt } from './index'
import { useVizprompt, type Fixture } from '../../../tests/support/vizpromptFixture'

// Guards for the speed of big imports and exports that do not time anything: the work that
// made them slow must not grow back with the number of nodes. SQL statements are prepared
// once per import, not per row, and what Loomverse writes is read and written by the fast
// readers and writer (yamlSubset.ts, xmlSubset.ts, yamlWriter.ts), never by the general
// parsers, whose cost grows badly with a big flow.

vi.mock('yaml', async (importOriginal) => {
  const yaml = await importOriginal<typeof import('yaml')>()
  return { ...yaml, parseDocument: vi.fn(yaml.parseDocument), stringify: vi.fn(yaml.stringify) }
})
vi.mock('fast-xml-parser', async (importOriginal) => {
  const fxp = await importOriginal<typeof import('fast-xml-parser')>()
  return { ...fxp, XMLValidator: { validate: vi.fn(fxp.XMLValidator.validate) } }
})

const setup = useVizprompt()

/** A conversation shaped like the app's (as bench/graphFixture.ts makes them): a main line, branches, merges. */
function conversation(core: Core, count: number): string {
  const store = core.graph.store
  const flowId = core.graph.createFlow({ name: 'bench', description: 'a long one' }).id
  core.db
    .transaction(() => {
      let main: string | null = null
      let branch: string | null = null
      for (let i = 0; i < count; i++) {
        const id = randomUUID()
        const onBranch = i % 7 === 3 && main !== null
        const parent = onBranch ? (branch ?? main) : main
        store.insertNode({
          id,
          timestamp: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
          prompt: `Turn ${i}: 今日の話題は${i % 2 ? '東京の桜' : '京都の紅葉'}について。`,
          response: `Reply ${i}. **Markdown**:\n\n- one\n- two\r\n\nそして日本語も。`,
          model: 'bench:model',
        })
        store.setTags(id, [`topic${i % 13}`, i % 2 ? '桜' : '紅葉'])
        store.addMember(flowId, id, { x: onBranch ? 380 : 0, y: i * 260.5 })
        if (parent) store.addEdge(flowId, parent, id)
        if (onBranch) branch = id
        else {
          if (i % 23 === 0 && branch && main) store.addEdge(flowId, branch, id)
          main = id
        }
      }
    })
    .immediate()
  return flowId
}

async function exported(t: Fixture, count: number): Promise<string> {
  const source = t.core(`source-${count}`)
  conversation(source, count)
  const dir = t.path(`export-${count}`)
  vi.mocked(stringify).mockClear()
  await exportVizprompt(source, { outDir: dir })
  expect(vi.mocked(stringify), 'yaml.stringify during an export').not.toHaveBeenCalled()
  return dir
}

/** The statements an import prepares, and whether the general parsers were needed. */
async function importing(core: Core, dir: string): Promise<number> {
  vi.mocked(parseDocument).mockClear()
  vi.mocked(XMLValidator.validate).mockClear()
  const prepare = vi.spyOn(core.db, 'prepare')
  try {
    await importVizprompt(core, dir)
    return prepare.mock.calls.length
  } finally {
    prepare.mockRestore()
    expect(vi.mocked(parseDocument), 'yaml.parseDocument during an import').not.toHaveBeenCalled()
    expect(vi.mocked(XMLValidator.validate), 'XMLValidator.validate during an import').not.toHaveBeenCalled()
  }
}

/** Makes every node and flow of an export newer than the database's copy. */
function touchAll(dir: string): void {
  for (const folder of readdirSync(join(dir, 'nodes'))) {
    for (const file of readdirSync(join(dir, 'nodes', folder))) {
      const path = join(dir, 'nodes', folder, file)
      writeFileSync(path, readFileSync(path, 'utf8').replace(/timestamp="2026-/, 'timestamp="2027-'))
    }
  }
  const flow = join(dir, 'flows', '00', '00.yaml')
  writeFileSync(flow, readFileSync(flow, 'utf8').replace(/^updated: .*$/m, 'updated: 2099-01-01T00:00:00Z'))
}

describe('VizPrompt import and export at scale', () => {
  it('prepare the same statements for 10 nodes as for 400, whether inserting, skipping or replacing', async () => {
    const t = setup()
    const counts = []
    for (const size of [10, 400]) {
      const dir = await exported(t, size)
      const target = t.core(`target-${size}`)
      const inserting = await importing(target, dir)
      const skipping = await importing(target, dir)
      touchAll(dir)
      const replacing = await importing(target, dir)
      expect(target.graph.getFlow(target.graph.listFlows()[0]!.id).updated).toBe('2099-01-01T00:00:00Z')
      counts.push({ inserting, skipping, replacing })
    }
    expect(counts[1]).toEqual(counts[0])
    // A handful per kind of row, whatever the size.
    for (const n of Object.values(counts[0]!)) expect(n).toBeLessThan(25)
  }, 60_000)
})
