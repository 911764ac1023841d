import { describe, expect, it } from 'vitest'
import type { Flow, Item, Persona } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

// U+202E (right-to-left override) makes "evil\u202Etxt.exe" show as "evilexe.txt".
const RLO = '\u202E'
const ISOLATE = '\u2067'

describe('names shown to the user', () => {
  it('lose bidi overrides and control characters wherever a name is accepted', async () => {
    const h = await start()
    const persona = await h.call<Persona>('create_persona', { name: `Mi${RLO}ka\u0007` })
    expect(persona.name).toBe('Mika')
    const renamed = await h.call<Persona>('update_persona', { id: persona.id, name: `${ISOLATE}Hana\u2069\tSan` })
    expect(renamed.name).toBe('Hana San')
    const building = await h.call<{ name: string }>('create_building', { name: `Lib${RLO}rary\u009B` })
    expect(building.name).toBe('Library')
    const doc = await h.call<Item>('document_create', {
      name: `report${RLO}fdp.exe`,
      description: 'd',
      content: 'c',
    })
    expect(doc.name).toBe('reportfdp.exe')
    const flow = await h.call<Flow>('create_flow', { name: `talk\u202A\u202B\u202C\u202Dx\r\ny` })
    expect(flow.name).toBe('talkx y')
  })

  it('refuses NUL with bad_input naming the field, and stores nothing', async () => {
    const h = await start()
    const before = await h.call<Persona[]>('list_personas', {})
    const r = await h.core.router.call('create_persona', { name: 'Mi\u0000ka' }, { transport: 'internal' })
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: 'create_persona: name: must not contain a NUL character (U+0000)' },
    })
    expect(await h.call<Persona[]>('list_personas', {})).toEqual(before)
  })

  it('refuses a name that is nothing but control characters as empty', async () => {
    const h = await start()
    const r = await h.core.router.call('create_building', { name: `${RLO}\u0001 ` }, { transport: 'internal' })
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    if (!r.ok) expect(r.error.message).toMatch(/^create_building: name: /)
  })
  it('refuses NUL in searched words with bad_input, never an internal error from the full-text index', async () => {
    const h = await start()
    const flow = await h.call<Flow>('create_flow', { name: 'talk' })
    const nodes = await h.core.router.call(
      'search_nodes',
      { keywords: ['lighthouse \u0000"%s'], flow_id: flow.id },
      { transport: 'internal' },
    )
    expect(nodes).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(JSON.stringify(nodes)).toContain('NUL')
    const persona = await h.call<Persona>('create_persona', { name: 'Mika' })
    const units = await h.core.router.call(
      'memory_list_units',
      { persona_id: persona.id, query: 'tea \u0000 time' },
      { transport: 'internal' },
    )
    expect(units).toMatchObject({ ok: false, error: { code: 'bad_input' } })
  })
})
