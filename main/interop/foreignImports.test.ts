import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { Flow, FlowGraph, LoreBook, Persona } from '@shared/contract'
import { chatgptConversation, pngWith, v2Card } from '../../tests/support/foreignFiles'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'

const start = useLlmCore({ jobWorker: null, memoryWorker: null })

/** As a window calls: a file is named inside the data folder's imports/. */
async function fromWindow<T>(h: LlmHarness, method: string, input: unknown): Promise<T> {
  const r = await h.core.router.call(method, input, { transport: 'ws' })
  if (!r.ok) throw new Error(`${method}: ${r.error.code}: ${r.error.message}`)
  return r.value as T
}

function imports(h: LlmHarness, name: string, content: string | Buffer): string {
  mkdirSync(h.core.paths.imports, { recursive: true })
  writeFileSync(join(h.core.paths.imports, name), content)
  return name
}

describe('ChatGPT export import', () => {
  it('maps the message tree onto the graph: regenerations and edits become branches, tools and hidden text stay out', async () => {
    const h = await start()
    const file = imports(h, 'conversations.json', JSON.stringify([chatgptConversation(), { title: 'broken' }]))
    const progress = h.next('job_progress', (p) => p.label === 'ChatGPT import' && p.state === 'done')
    const report = await fromWindow<{
      flows: number
      nodes: number
      skipped: Array<{ conversation: string; reason: string }>
    }>(h, 'chatgpt_import', { path: file })
    // Counted in nodes: one conversation may hold most of an export.
    expect(await progress).toMatchObject({ done: 4, total: 4 })
    expect(report).toMatchObject({ flows: 1, nodes: 4 })
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { conversation: 'broken', reason: expect.stringMatching(/not a ChatGPT conversation/) },
        { conversation: 'Trip to Kyoto', reason: '1 pictures or files not imported' },
      ]),
    )

    const flow = (await h.call<Flow[]>('list_flows', {})).find((f) => f.name === 'Trip to Kyoto')!
    const graph = await h.call<FlowGraph>('load_flow', { id: flow.id })
    const by = (prompt: string) => graph.nodes.filter((n) => n.prompt === prompt)
    const first = by('Where should I go in Kyoto?')
    expect(first.map((n) => n.response).sort()).toEqual(['Kiyomizu-dera and Fushimi Inari.', 'Try Arashiyama.'])
    const kiyomizu = first.find((n) => n.response.startsWith('Kiyomizu'))!
    const temple = by('What is this temple?')[0]!
    expect(temple.response).toBe('That is Kinkaku-ji.') // the browsing call and its result are not shown
    const autumn = by('And in autumn?')[0]!
    expect(autumn).toMatchObject({ response: 'Tofuku-ji for the leaves.', metadata: { model: 'chatgpt:o3' } })
    const parents = (id: string) => graph.flow.connections.filter((c) => c.to === id).map((c) => c.from)
    expect(parents(temple.id)).toEqual([kiyomizu.id])
    expect(parents(autumn.id)).toEqual([kiyomizu.id]) // the edited prompt is a sibling branch
    expect(parents(kiyomizu.id)).toEqual([])
    expect(temple.timestamp).toBe(new Date(1_700_000_040_000).toISOString())

    // Importing the same export again adds nothing.
    const again = await fromWindow<{ flows: number; skipped: Array<{ reason: string }> }>(h, 'chatgpt_import', {
      path: file,
    })
    expect(again.flows).toBe(0)
    expect(again.skipped).toContainEqual({ conversation: 'Trip to Kyoto', reason: 'imported before' })
  })

  it('refuses what is not an export, with the file named, and an archive with what to do', async () => {
    const h = await start()
    const cases: Array<[string, string, RegExp]> = [
      ['notes.json', '{"a": 1}', /notes\.json: is not a ChatGPT export/],
      ['bad.json', '[{', /bad\.json: is not JSON/],
      ['export.zip', 'PK', /export\.zip: is the export archive: unzip it/],
    ]
    for (const [name, content, why] of cases) {
      const r = await h.core.router.call('chatgpt_import', { path: imports(h, name, content) }, { transport: 'ws' })
      expect(r, name).toMatchObject({ ok: false, error: { code: 'bad_file', message: why } })
    }
    const outside = await h.core.router.call('chatgpt_import', { path: '/etc/passwd' }, { transport: 'ws' })
    expect(outside).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(await h.call<Flow[]>('list_flows', {})).toHaveLength(0)
  })
})

describe('SillyTavern character card import', () => {
  it('reads a v2 card from a PNG into a persona with its greetings as branches', async () => {
    const h = await start()
    const file = imports(h, 'seraphina.png', pngWith({ chara: Buffer.from(JSON.stringify(v2Card)).toString('base64') }))
    const report = await fromWindow<{
      persona: Persona
      flow_id: string
      greetings: number
      spec: string
      lorebook_id: string
      skipped: string[]
    }>(h, 'character_card_import', { path: file })
    expect(report).toMatchObject({ spec: 'v2', greetings: 2 })
    // The card's lorebook comes along as a book attached to the persona.
    const book = await fromWindow<LoreBook>(h, 'get_lorebook', { id: report.lorebook_id })
    expect(book).toMatchObject({
      name: "Seraphina's lorebook",
      entries: [{ keys: ['glade'], content: 'A hidden place.' }],
      attachments: [{ kind: 'persona', target_id: report.persona.id }],
    })
    expect(report.persona.name).toBe('Seraphina')
    expect(report.persona.persona_text).toContain('Seraphina is a guardian of the forest')
    expect(report.persona.persona_text).toContain('[Personality]\nkind, protective')
    expect(report.persona.persona_text).toContain('the user wakes up in her glade')
    expect(report.persona.contract_text).toBe('Stay in character as Seraphina.')
    expect(report.skipped).toEqual(["the creator's notes", 'tags: fantasy'])
    // The card's picture is the persona's, without the card in it.
    const avatar = await fromWindow<{ mime: string; data_base64: string }>(h, 'get_persona_avatar', {
      id: report.persona.id,
    })
    expect(avatar.mime).toBe('image/png')
    expect(Buffer.from(avatar.data_base64, 'base64').includes(Buffer.from('tEXtchara', 'latin1'))).toBe(false)
    const graph = await h.call<FlowGraph>('load_flow', { id: report.flow_id })
    expect(graph.flow.persona_id).toBe(report.persona.id)
    expect(graph.nodes.map((n) => n.response)).toEqual([
      '*Seraphina smiles.* You are awake at last.',
      '*The glade is quiet.* Rest now.',
    ])
    expect(graph.flow.connections).toEqual([])
  })

  it('exports a persona as a PNG card (v2 chara and v3 ccv3) that imports back with its greetings and lorebook', async () => {
    const h = await start()
    const file = imports(h, 'seraphina.png', pngWith({ chara: Buffer.from(JSON.stringify(v2Card)).toString('base64') }))
    const first = await fromWindow<{ persona: Persona; lorebook_id: string }>(h, 'character_card_import', {
      path: file,
    })
    await fromWindow(h, 'update_lore_entry', {
      book_id: first.lorebook_id,
      uid: 0,
      sticky: 3,
      secondary_keys: ['night'],
    })
    const exported = await fromWindow<{ file_name: string; data_base64: string }>(h, 'character_card_export', {
      persona_id: first.persona.id,
    })
    expect(exported.file_name).toBe('Seraphina.png')
    const png = Buffer.from(exported.data_base64, 'base64')
    // Both cards are in the picture: a v2-only reader finds `chara`, a v3 reader `ccv3`.
    expect(png.includes(Buffer.from('tEXtchara\0', 'latin1'))).toBe(true)
    expect(png.includes(Buffer.from('tEXtccv3\0', 'latin1'))).toBe(true)

    const again = await fromWindow<{ persona: Persona; lorebook_id: string; spec: string; greetings: number }>(
      h,
      'character_card_import',
      { path: imports(h, 'exported.png', png) },
    )
    expect(again).toMatchObject({ spec: 'v3', greetings: 2 })
    expect(again.persona.contract_text).toBe(first.persona.contract_text)
    const [before, after] = await Promise.all(
      [first.lorebook_id, again.lorebook_id].map((id) => fromWindow<LoreBook>(h, 'get_lorebook', { id })),
    )
    const fields = (b: LoreBook) => b.entries.map(({ extra: _extra, ...e }) => e)
    expect(fields(after!)).toEqual(fields(before!))
    expect(after!.name).toBe(before!.name)
  })

  it('exports a persona as a CHARX card with its picture as the main icon, which imports back whole', async () => {
    const h = await start()
    await h.call('update_settings', { user: { name: 'Mina', description: '' } })
    const greeting = { ...v2Card.data, first_mes: '*{{char}} smiles at {{user}}.*' }
    const file = imports(h, 'seraphina.json', JSON.stringify({ ...v2Card, data: greeting }))
    const first = await fromWindow<{ persona: Persona; lorebook_id: string; flow_id: string }>(
      h,
      'character_card_import',
      { path: file },
    )
    // A greeting's macros are filled with the names, as SillyTavern fills them when a chat starts.
    const graph = await h.call<FlowGraph>('load_flow', { id: first.flow_id })
    expect(graph.nodes.map((n) => n.response)).toContain('*Seraphina smiles at Mina.*')
    const picture = pngWith({ Comment: 'portrait' })
    await fromWindow(h, 'set_persona_avatar', { id: first.persona.id, data_base64: picture.toString('base64') })
    await fromWindow(h, 'update_lore_entry', {
      book_id: first.lorebook_id,
      uid: 0,
      sticky: 2,
      group: 'places',
      position: 'outlet',
      extra: { outletName: 'glade', characterFilter: { names: ['Seraphina'], tags: [], isExclude: true } },
    })

    const exported = await fromWindow<{ file_name: string; data_base64: string }>(h, 'character_card_export', {
      persona_id: first.persona.id,
      format: 'charx',
    })
    expect(exported.file_name).toBe('Seraphina.charx')
    const charx = Buffer.from(exported.data_base64, 'base64')
    const files = unzipSync(charx)
    expect(Object.keys(files).sort()).toEqual(['assets/icon/images/main.png', 'card.json'])
    expect(Buffer.from(files['assets/icon/images/main.png']!)).toEqual(picture)
    const card = JSON.parse(Buffer.from(files['card.json']!).toString('utf8'))
    expect(card).toMatchObject({
      spec: 'chara_card_v3',
      spec_version: '3.0',
      data: {
        name: 'Seraphina',
        assets: [{ type: 'icon', uri: 'embeded://assets/icon/images/main.png', name: 'main', ext: 'png' }],
      },
    })

    // Saved under any name, the archive is listed as a card and comes back whole.
    const name = imports(h, 'download.bin', charx)
    const listed = await fromWindow<Array<{ name: string; kind: string }>>(h, 'imports_list', {})
    expect(listed.find((l) => l.name === name)?.kind).toBe('card')
    const again = await fromWindow<{
      persona: Persona
      lorebook_id: string
      flow_id: string
      format: string
      avatar: boolean
      skipped: string[]
    }>(h, 'character_card_import', { path: name })
    expect(again).toMatchObject({ format: 'charx', avatar: true, spec: 'v3' })
    expect(again.skipped.some((s) => s.includes('assets'))).toBe(false)
    expect(again.persona.persona_text).toBe(first.persona.persona_text)
    const avatar = await fromWindow<{ data_base64: string }>(h, 'get_persona_avatar', { id: again.persona.id })
    expect(Buffer.from(avatar.data_base64, 'base64')).toEqual(picture)
    const [before, after] = await Promise.all(
      [first.lorebook_id, again.lorebook_id].map((id) => fromWindow<LoreBook>(h, 'get_lorebook', { id })),
    )
    const fields = (b: LoreBook) => b.entries.map(({ extra: _extra, ...e }) => e)
    expect(fields(after!)).toEqual(fields(before!))
    expect(after!.entries[0]).toMatchObject({
      sticky: 2,
      group: 'places',
      position: 'outlet',
      extra: { outletName: 'glade', characterFilter: { names: ['Seraphina'], tags: [], isExclude: true } },
    })
    const greetings = (await h.call<FlowGraph>('load_flow', { id: again.flow_id })).nodes.map((n) => n.response)
    expect(greetings.sort()).toEqual(graph.nodes.map((n) => n.response).sort())
  })

  it('refuses a picture that is no image as a persona picture, and changes nothing', async () => {
    const h = await start()
    const persona = await h.call<Persona>('create_persona', { name: 'Ada' })
    const r = await h.core.router.call(
      'set_persona_avatar',
      { id: persona.id, data_base64: Buffer.from('<svg onload="x"/>').toString('base64') },
      { transport: 'ws' },
    )
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: 'data_base64: not a PNG, JPEG, WebP or GIF picture' },
    })
    expect(await fromWindow(h, 'get_persona_avatar', { id: persona.id })).toBeNull()
  })

  it('refuses a card whose lorebook cannot be read, naming the field, and makes no persona', async () => {
    const h = await start()
    const broken = {
      ...v2Card,
      data: { ...v2Card.data, character_book: { entries: [{ keys: 'glade', content: 'x' }] } },
    }
    const r = await h.core.router.call(
      'character_card_import',
      { path: imports(h, 'broken.json', JSON.stringify(broken)) },
      { transport: 'ws' },
    )
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'bad_file',
        message: expect.stringContaining('character_book.entries.0.keys: must be a list of text'),
      },
    })
    expect(await h.call<Persona[]>('list_personas', {})).toEqual([])
    expect(await h.call('list_lorebooks', {})).toEqual([])
  })

  it('prefers the v3 chunk, takes a v1 JSON card, and refuses a picture without a card', async () => {
    const h = await start()
    const v3 = {
      spec: 'chara_card_v3',
      spec_version: '3.0',
      data: { ...v2Card.data, name: 'Seraphina v3', assets: [] },
    }
    const both = imports(
      h,
      'both.png',
      pngWith({
        chara: Buffer.from(JSON.stringify(v2Card)).toString('base64'),
        ccv3: Buffer.from(JSON.stringify(v3)).toString('base64'),
      }),
    )
    expect(await fromWindow(h, 'character_card_import', { path: both })).toMatchObject({
      spec: 'v3',
      persona: { name: 'Seraphina v3' },
    })
    const v1 = imports(h, 'old.json', JSON.stringify({ name: 'Aqua', description: 'A goddess.', first_mes: '' }))
    expect(await fromWindow(h, 'character_card_import', { path: v1 })).toMatchObject({
      spec: 'v1',
      flow_id: null,
      greetings: 0,
    })

    const plain = imports(h, 'photo.png', pngWith({ Software: 'paint' }))
    const r = await h.core.router.call('character_card_import', { path: plain }, { transport: 'ws' })
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_file', message: /photo\.png: is a picture without a character card/ },
    })
    const nameless = imports(h, 'nameless.json', JSON.stringify({ spec: 'chara_card_v2', data: { description: 'x' } }))
    const r2 = await h.core.router.call('character_card_import', { path: nameless }, { transport: 'ws' })
    expect(r2).toMatchObject({ ok: false, error: { message: /nameless\.json: is not a character card/ } })
    expect((await h.call<Persona[]>('list_personas', {})).map((p) => p.name).sort()).toEqual(['Aqua', 'Seraphina v3'])
  })
})

describe('a file imported as the wrong kind', () => {
  it('lists a card saved as JSON as a card, and refuses it as a chat log or an export in the user’s words', async () => {
    const h = await start()
    const sora = await h.call<Persona>('create_persona', { name: 'Sora' })
    const file = imports(h, 'seraphina.json', JSON.stringify(v2Card, null, 2))
    const listed = await fromWindow<Array<{ name: string; kind: string }>>(h, 'imports_list', {})
    expect(listed).toMatchObject([{ name: file, kind: 'card' }])

    const asLog = await h.core.router.call('memory_import', { persona_id: sora.id, path: file }, { transport: 'ws' })
    expect(asLog).toMatchObject({
      ok: false,
      error: {
        code: 'bad_file',
        message:
          'seraphina.json: This file looks like a SillyTavern character card, not a chat log. Choose "Character card" to import it as a persona.',
      },
    })
    await h.call('update_settings', { language: 'ja' })
    const asExport = await h.core.router.call('chatgpt_import', { path: file }, { transport: 'ws' })
    expect(asExport).toMatchObject({
      ok: false,
      error: { code: 'bad_file', message: /このファイルはSillyTavern のキャラクターカードのようです/ },
    })
    expect(await h.call<Flow[]>('list_flows', {})).toHaveLength(0)
    expect(await h.call('memory_status', { persona_id: sora.id })).toMatchObject({ units: 0 })

    // Imported as what it is, it becomes a persona.
    const card = await fromWindow<{ persona: Persona }>(h, 'character_card_import', { path: file })
    expect(card.persona.name).toBe('Seraphina')
  })
})

describe('putting a file into imports/ from a window', () => {
  it('takes a file in pieces, in order only, never replacing one, and lists what is there', async () => {
    const h = await start()
    const text = JSON.stringify([chatgptConversation()])
    const half = Math.floor(text.length / 2)
    const piece = (s: string) => Buffer.from(s).toString('base64')
    const first = await fromWindow<{ size: number }>(h, 'imports_upload', {
      name: 'conversations.json',
      offset: 0,
      data_base64: piece(text.slice(0, half)),
      final: false,
    })
    expect(first.size).toBe(half)
    const wrong = await h.core.router.call(
      'imports_upload',
      { name: 'conversations.json', offset: 3, data_base64: piece('x'), final: true },
      { transport: 'ws' },
    )
    expect(wrong).toMatchObject({ ok: false, error: { code: 'conflict', message: /expected the piece at byte/ } })
    const done = await fromWindow<{ name: string; size: number }>(h, 'imports_upload', {
      name: 'conversations.json',
      offset: half,
      data_base64: piece(text.slice(half)),
      final: true,
    })
    expect(done).toEqual({ name: 'conversations.json', size: Buffer.byteLength(text) })
    const again = await fromWindow<{ name: string }>(h, 'imports_upload', {
      name: 'conversations.json',
      offset: 0,
      data_base64: piece('[]'),
      final: true,
    })
    expect(again.name).toBe('conversations (2).json')
    for (const name of ['../x.json', '.hidden', 'a/b.json'])
      expect(
        await h.core.router.call(
          'imports_upload',
          { name, offset: 0, data_base64: '', final: true },
          { transport: 'ws' },
        ),
        name,
      ).toMatchObject({ ok: false, error: { code: 'bad_input' } })

    const listed = await fromWindow<Array<{ name: string; kind: string }>>(h, 'imports_list', {})
    expect(listed.map((f) => [f.name, f.kind]).sort()).toEqual([
      ['conversations (2).json', 'chatgpt'],
      ['conversations.json', 'chatgpt'],
    ])
    expect(await fromWindow(h, 'chatgpt_import', { path: done.name })).toMatchObject({ flows: 1, nodes: 4 })
  })
})
