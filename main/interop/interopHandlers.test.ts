import { cpSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Flow } from '@shared/contract'
import { useVizprompt } from '../../tests/support/vizpromptFixture'

const fixture = useVizprompt()
const fromWindow = { transport: 'ws' } as const

describe('VizPrompt export and import through the contract', () => {
  it('exports from a window only into exports/ and imports only from imports/', async () => {
    const f = fixture()
    const core = f.core()
    const call = (method: string, input: unknown) => core.router.call(method, input, fromWindow)
    const flow = (await call('create_flow', { name: 'trip' })) as { ok: true; value: Flow }
    await call('create_node', { flow_id: flow.value.id, prompt: 'Kyoto?', response: 'In Kansai.' })

    const exported = await call('vizprompt_export', { out: 'trip' })
    expect(exported).toEqual({ ok: true, value: { out_dir: join(core.paths.exports, 'trip'), flows: 1, nodes: 1 } })
    for (const out of ['../elsewhere', f.path('elsewhere'), '..'])
      expect(await call('vizprompt_export', { out })).toMatchObject({
        ok: false,
        error: { code: 'bad_input', message: expect.stringContaining('must be one folder name inside exports/') },
      })
    expect(existsSync(f.path('elsewhere'))).toBe(false)

    // Another data folder: the export, copied into its imports/, comes in; the same folder by its own path does not.
    const other = f.core('other')
    const outside = await other.router.call('vizprompt_import', { path: join(core.paths.exports, 'trip') }, fromWindow)
    expect(outside).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringContaining('imports folder') },
    })
    cpSync(join(core.paths.exports, 'trip'), join(other.paths.imports, 'trip'), { recursive: true })
    const imported = await other.router.call('vizprompt_import', { path: 'trip' }, fromWindow)
    expect(imported).toMatchObject({ ok: true, value: { flows: 1, nodes: 1, skipped: [] } })
    expect(other.graph.listFlows().map((x) => x.name)).toEqual(['trip'])
  })
})
