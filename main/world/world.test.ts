import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Flow, Item, ItemContent, ToolCallRecord, World } from '@shared/contract'
import { uiLanguage } from '../kernel/language'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { sourceWorker } from '../../tests/support/sourceWorker'
import { pngBytes } from '../../tests/support/world/pngBytes'

// These tests read the world's Japanese texts: the user chose Japanese.
const start = useLlmCore({ language: 'ja' })

/** Summaries use their own model names, so scripted chat replies never go to a summary job. */
const summaryEnv = {
  LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:summary-mini',
  LOOMVERSE_LIGHTWEIGHT_VISION_MODEL: 'openai:vision-mini',
}

const ready = (h: LlmHarness, id: string) =>
  h.next('item_updated', (e) => e.item.id === id && e.item.summary_status === 'ready')

async function library(h: LlmHarness): Promise<{ world: World; libraryId: string; museumId: string }> {
  const world = await h.call<World>('get_world', {})
  return {
    world,
    libraryId: world.buildings.find((b) => b.kind === 'library')!.id,
    museumId: world.buildings.find((b) => b.kind === 'museum')!.id,
  }
}

describe('the world on first run', () => {
  it('speaks the language the app resolves: with `auto`, the machine’s, not always Japanese', async () => {
    const h = await start({ language: undefined })
    const { world } = await library(h)
    const names = uiLanguage('auto') === 'ja' ? ['美術館', '図書館'] : ['Museum', 'Library']
    expect(world.buildings.map((b) => b.name)).toEqual(names)
    const english = await start({ language: 'en' })
    expect((await library(english)).world.buildings.map((b) => b.name)).toEqual(['Museum', 'Library'])
  })

  it('has a museum and a library holding the user guide, with the user in the library', async () => {
    const h = await start()
    const { world, libraryId } = await library(h)
    expect(world.buildings.map((b) => b.name)).toEqual(['美術館', '図書館'])
    expect(world.user_building_id).toBe(libraryId)
    const items = await h.call<Item[]>('list_items', { building_id: libraryId })
    const guide = items.find((i) => i.type === 'document')!
    expect(guide).toMatchObject({ summary_status: 'ready', file_path: expect.stringMatching(/^documents\//) })
    const view = await h.call<ItemContent>('item_view', { item_id: guide.id })
    // The guide reads in the world's language first; the other follows it, for a persona of either.
    expect(view.kind === 'document' && view.text.startsWith('# Loomverse 使い方ガイド\n')).toBe(true)
    expect(view.kind === 'document' && view.text).toContain('# Loomverse user guide')
    // An object cannot be viewed: the seed's own words.
    const desk = items.find((i) => i.type === 'object')!
    const r = await h.core.router.call('item_view', { item_id: desk.id }, { transport: 'internal' })
    expect(r).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'このアイテムは view 操作に対応していません。' },
    })
  })

  it('says "not viewable" in English when the UI is English', async () => {
    const h = await start()
    await h.call('update_settings', { language: 'en' })
    const { libraryId } = await library(h)
    const desk = (await h.call<Item[]>('list_items', { building_id: libraryId })).find((i) => i.type === 'object')!
    const r = await h.core.router.call('item_view', { item_id: desk.id }, { transport: 'internal' })
    expect(r.ok === false && r.error.message).toBe('This item does not support the view operation.')
  })

  it('opens the user guide in English first in an English world', async () => {
    const h = await start({ language: 'en' })
    const { libraryId } = await library(h)
    const guide = (await h.call<Item[]>('list_items', { building_id: libraryId })).find((i) => i.type === 'document')!
    expect(guide.name).toBe('Loomverse user guide')
    const view = await h.call<ItemContent>('item_view', { item_id: guide.id })
    expect(view.kind === 'document' && view.text.startsWith('# Loomverse user guide\n')).toBe(true)
    expect(view.kind === 'document' && view.text).toContain('# Loomverse 使い方ガイド')
  })
})

describe('buildings and whereabouts', () => {
  it('creates, renames, moves the user and a persona, and refuses to delete a building that holds items', async () => {
    const h = await start()
    const { libraryId } = await library(h)
    const room = await h.call<{ id: string }>('create_building', { name: '自室', kind: 'room' })
    await h.call('update_building', { id: room.id, name: '私の部屋' })
    const persona = await h.call<{ id: string }>('create_persona', { name: 'Aoi' })
    let world = await h.call<World>('get_world', {})
    // A persona that never moved keeps the user company.
    expect(world.buildings.find((b) => b.id === libraryId)!.personas.map((p) => p.name)).toEqual(['Aoi'])
    world = await h.call<World>('move_to', { building_id: room.id, persona_id: persona.id })
    expect(world.buildings.find((b) => b.id === room.id)).toMatchObject({
      name: '私の部屋',
      personas: [{ name: 'Aoi' }],
    })
    world = await h.call<World>('move_to', { building_id: room.id })
    expect(world.user_building_id).toBe(room.id)

    const refused = await h.core.router.call('delete_building', { id: libraryId }, { transport: 'internal' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/2 items/) } })
    await h.call('delete_building', { id: room.id })
    world = await h.call<World>('get_world', {})
    expect(world.buildings.some((b) => b.id === room.id)).toBe(false)
    expect(world.user_building_id).not.toBeNull()
    expect(world.personas.find((p) => p.id === persona.id)!.building_id).toBeNull()
  })
})

describe('pictures', () => {
  it('stores an uploaded PNG under image/, makes a picture item, and summarises it with the vision model', async () => {
    const h = await start({ jobWorker: sourceWorker(), env: summaryEnv })
    h.fake.script({ provider: 'openai', model: 'vision-mini', reply: '赤い正方形の画像。' })
    const { libraryId } = await library(h)
    const item = await h.call<Item>('picture_upload', {
      filename: 'red.png',
      data_base64: pngBytes().toString('base64'),
    })
    expect(item).toMatchObject({ type: 'picture', name: 'red', summary_status: 'pending', owner: { id: libraryId } })
    expect(item.file_path).toMatch(/^image\/\d{8}_\d{6}_[0-9a-f-]{36}\.png$/)
    const done = await ready(h, item.id)
    expect(done.item.summary).toBe('赤い正方形の画像。')
    const home = h.core.paths.home
    expect(readFileSync(join(home, `${item.file_path}.summary.txt`), 'utf8')).toBe('赤い正方形の画像。')
    // The vision model saw the image and the seed's prompt.
    const sent = JSON.stringify(h.fake.requests.find((r) => r.model === 'vision-mini')!.body)
    expect(sent).toContain('300文字以内の日本語で1〜2文')
    expect(sent).toContain(pngBytes().toString('base64').slice(0, 40))
    const view = await h.call<ItemContent>('item_view', { item_id: item.id })
    expect(view).toMatchObject({ kind: 'picture', mime: 'image/png', data_base64: pngBytes().toString('base64') })
  })

  it('summarises with the persona’s own lightweight vision model when the upload names the persona', async () => {
    const h = await start({ jobWorker: sourceWorker(), env: summaryEnv })
    h.fake.script({ provider: 'openai', model: 'aoi-eyes', reply: 'アオイが見た赤い正方形。' })
    const persona = await h.call<{ id: string }>('create_persona', {
      name: 'Aoi',
      lightweight_vision_model: 'openai:aoi-eyes',
    })
    const item = await h.call<Item>('picture_upload', {
      filename: 'red.png',
      data_base64: pngBytes().toString('base64'),
      persona_id: persona.id,
    })
    expect((await ready(h, item.id)).item.summary).toBe('アオイが見た赤い正方形。')
    expect(h.fake.requests.some((r) => r.model === 'vision-mini')).toBe(false)
  })

  it('refuses a text file, an SVG, an oversized and a too-many-pixel image clearly, storing nothing', async () => {
    const h = await start({ env: { LOOMVERSE_MAX_IMAGE_MB: '0.0005', LOOMVERSE_MAX_IMAGE_MEGAPIXELS: '0.001' } })
    const upload = (filename: string, bytes: Buffer) =>
      h.core.router.call(
        'picture_upload',
        { filename, data_base64: bytes.toString('base64') },
        { transport: 'internal' },
      )
    expect(await upload('notes.png', Buffer.from('just some text'))).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('PNG・JPEG・WebP・GIF') },
    })
    expect(await upload('x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('SVG') },
    })
    expect(await upload('big.png', Buffer.concat([pngBytes(), Buffer.alloc(2000)]))).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('大きすぎます（上限') },
    })
    expect(await upload('wide.png', pngBytes(100, 100))).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('100×100 ピクセル') },
    })
    expect(await upload('cut.png', pngBytes().subarray(0, 12))).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('壊れています') },
    })
    const images = join(h.core.paths.home, 'image')
    expect(existsSync(images) ? readdirSync(images) : []).toEqual([])
  })

  it('says plainly when no image model is set, storing nothing', async () => {
    const h = await start()
    const r = await h.core.router.call('generate_image', { prompt: 'a cat' }, { transport: 'internal' })
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: expect.stringContaining('画像生成のモデルが設定されていません') },
    })
    expect(existsSync(join(h.core.paths.home, 'image'))).toBe(false)
  })
})

describe('pictures the persona generates', () => {
  it('become picture items in its building by tool call, checked, summarised, the call recorded', async () => {
    const h = await start({ jobWorker: sourceWorker(), env: summaryEnv })
    h.fake.script({ provider: 'openai', model: 'vision-mini', reply: '海辺の夕焼けの絵。' })
    const persona = await h.call<{ id: string }>('create_persona', {
      name: 'Aoi',
      image_model: 'openai:gpt-image-1',
    })
    const flow = await h.call<Flow>('create_flow', { name: 'art', persona_id: persona.id })
    const { museumId } = await library(h)
    await h.call('move_to', { building_id: museumId, persona_id: persona.id })
    h.fake.script({
      provider: 'openai',
      model: 'gpt-4o-mini',
      times: 1,
      reply: { toolCalls: [{ name: 'generate_image', arguments: { prompt: 'a sunset over the sea' } }] },
    })
    h.fake.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: '描きました。' })
    const made = h.next('item_updated', (e) => e.item.type === 'picture')
    const recorded = h.next('tool_calls_recorded')
    await h.call('chat_send', { flow_id: flow.id, prompt: '夕焼けの絵を描いて' })
    const item = (await made).item
    expect(item).toMatchObject({ name: 'a sunset over the sea', owner: { kind: 'building', id: museumId } })
    const asked = h.fake.requests.find((r) => r.path === '/v1/images/generations')
    expect(asked?.body).toMatchObject({ model: 'gpt-image-1', prompt: 'a sunset over the sea' })
    const calls = (await recorded).calls
    expect(calls[0]).toMatchObject({ name: 'generate_image', is_error: false })
    expect(calls[0]!.result).toContain(item.id)
    expect((await ready(h, item.id)).item.summary).toBe('海辺の夕焼けの絵。')
    const view = await h.call<ItemContent>('item_view', { item_id: item.id })
    expect(view).toMatchObject({ kind: 'picture', mime: 'image/png' })
  })

  it('records a refused generation as a failed tool call, and stores nothing', async () => {
    const h = await start()
    const persona = await h.call<{ id: string }>('create_persona', { name: 'Aoi', image_model: 'openai:gpt-image-1' })
    const flow = await h.call<Flow>('create_flow', { name: 'art', persona_id: persona.id })
    h.fake.script({ provider: 'openai', endpoint: 'image', status: 400 })
    h.fake.script({
      provider: 'openai',
      model: 'gpt-4o-mini',
      times: 1,
      reply: { toolCalls: [{ name: 'generate_image', arguments: { prompt: 'something' } }] },
    })
    h.fake.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: 'ごめんなさい。' })
    const recorded = h.next('tool_calls_recorded')
    await h.call('chat_send', { flow_id: flow.id, prompt: '絵を描いて' })
    expect((await recorded).calls[0]).toMatchObject({ name: 'generate_image', is_error: true })
    expect(existsSync(join(h.core.paths.home, 'image'))).toBe(false)
  })
})

describe('documents through the persona’s tools', () => {
  it('creates a document by tool call, records the call on the node, patches it and re-summarises', async () => {
    const h = await start({ jobWorker: sourceWorker(), env: summaryEnv })
    const persona = await h.call<{ id: string }>('create_persona', { name: 'Aoi' })
    const flow = await h.call<Flow>('create_flow', { name: 'diary', persona_id: persona.id })
    const { libraryId } = await library(h)

    h.fake.script({
      provider: 'openai',
      model: 'gpt-4o-mini',
      times: 1,
      reply: {
        toolCalls: [
          {
            name: 'document_create',
            arguments: { name: '私の日記', description: '今日の日記', content: '今日は晴れ。\n散歩をした。\n' },
          },
        ],
      },
    })
    h.fake.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: '日記を書きました。' })
    h.fake.script({
      provider: 'openai',
      model: 'summary-mini',
      promptIncludes: '300文字以内',
      times: 1,
      reply: '晴れた日の散歩の日記。',
    })
    const created = h.next('item_updated', (e) => e.item.name === '私の日記')
    const recorded = h.next('tool_calls_recorded')
    const { node_id } = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      prompt: '今日のことをメモに残して',
    })
    const item = (await created).item
    expect(item).toMatchObject({ type: 'document', description: '今日の日記', summary_status: 'pending' })
    expect(item.owner).toEqual({ kind: 'building', id: libraryId })
    const calls = (await recorded).calls
    expect(calls[0]).toMatchObject({ name: 'document_create', is_error: false })
    expect(calls[0]!.result).toContain(item.id)
    // The summary has its own field: the description the persona wrote stays as it was.
    expect((await ready(h, item.id)).item).toMatchObject({
      description: '今日の日記',
      summary: '晴れた日の散歩の日記。',
    })
    const listed = await h.call<Array<{ node_id: string; calls: ToolCallRecord[] }>>('list_tool_calls', {
      flow_id: flow.id,
    })
    expect(listed).toEqual([{ node_id, calls }])

    // patch_content with a unified diff, then the summary is rebuilt.
    h.fake.script({
      provider: 'openai',
      model: 'summary-mini',
      promptIncludes: '300文字以内',
      times: 1,
      reply: '雨の日の読書の日記。',
    })
    const patch = '@@ -1,2 +1,2 @@\n-今日は晴れ。\n-散歩をした。\n+今日は雨。\n+本を読んだ。\n'
    const used = await h.call<{ item: Item; message: string }>('item_use', {
      item_id: item.id,
      action_json: JSON.stringify({ action_type: 'patch_content', patch }),
      persona_id: persona.id,
    })
    expect(used.message).toContain('差分を適用しました')
    expect((await ready(h, item.id)).item).toMatchObject({ description: '今日の日記', summary: '雨の日の読書の日記。' })
    const view = await h.call<ItemContent>('item_view', { item_id: item.id })
    expect(view.kind === 'document' && view.text).toBe('今日は雨。\n本を読んだ。\n')

    // Every change is a version the user can read and revert.
    const versions = await h.call<Array<{ version: number; author: string; action: string }>>(
      'list_document_versions',
      { item_id: item.id },
    )
    expect(versions.map((v) => [v.version, v.author, v.action])).toEqual([
      [2, persona.id, 'patch_content'],
      [1, persona.id, 'create'],
    ])
    h.fake.script({ provider: 'openai', model: 'summary-mini', reply: '晴れた日の日記。' })
    await h.call('revert_document', { item_id: item.id, version: 1 })
    const back = await h.call<ItemContent>('item_view', { item_id: item.id })
    expect(back.kind === 'document' && back.text).toBe('今日は晴れ。\n散歩をした。\n')
  })

  it('refuses bad action_json and a failing patch with a clear reason, changing nothing', async () => {
    const h = await start()
    const doc = await h.call<Item>('document_create', { name: 'メモ', description: 'メモ', content: 'a\nb\n' })
    const use = (action_json: string) =>
      h.core.router.call('item_use', { item_id: doc.id, action_json }, { transport: 'internal' })
    expect(await use('{not json')).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('action_json is not valid JSON') },
    })
    expect(await use('{"action_type":"explode"}')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('update_description" or "patch_content') },
    })
    expect(await use('{"action_type":"patch_content"}')).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^action_json: patch:/) },
    })
    expect(
      await use(JSON.stringify({ action_type: 'patch_content', patch: '@@ -1 +1 @@\n-zzz\n+yyy\n' })),
    ).toMatchObject({ ok: false, error: { message: expect.stringContaining('文書は変更していません') } })
    const view = await h.call<ItemContent>('item_view', { item_id: doc.id })
    expect(view.kind === 'document' && view.text).toBe('a\nb\n')
    expect(await h.call('list_document_versions', { item_id: doc.id })).toHaveLength(1)
    expect((await h.call<Item>('get_item', { item_id: doc.id })).description).toBe('メモ')
  })

  it('tells the model what was wrong with its tool arguments, without creating anything', async () => {
    const h = await start()
    const flow = await h.call<Flow>('create_flow', { name: 'x' })
    h.fake.script({
      provider: 'openai',
      times: 1,
      reply: { toolCalls: [{ name: 'document_create', arguments: { name: 'no content' } }] },
    })
    const recorded = h.next('tool_calls_recorded')
    await h.call('chat_send', { flow_id: flow.id, prompt: 'write' })
    const call = (await recorded).calls[0]!
    expect(call).toMatchObject({
      is_error: true,
      result: expect.stringMatching(/^error: document_create: (description|content)/),
    })
    const { libraryId } = await library(h)
    expect((await h.call<Item[]>('list_items', { building_id: libraryId })).map((i) => i.type)).toEqual([
      'object',
      'document',
    ])
  })
})

describe('playbooks through the contract', () => {
  it('routes "日記を書く" to document_create_playbook and runs it against the model and the tools', async () => {
    const h = await start()
    h.fake.script({
      provider: 'openai',
      times: 1,
      reply: JSON.stringify({ name: '夜の日記', description: '夜のこと', content: '星がきれいだった。' }),
    })
    expect(await h.call('route_playbook', { text: 'こんにちは' })).toEqual({ playbook: null })
    const result = await h.call<{ playbook: string; steps: Array<{ node: string; output: string }> }>('run_playbook', {
      text: '今日の日記を書く',
    })
    expect(result.playbook).toBe('document_create_playbook')
    expect(result.steps.map((s) => s.node)).toEqual(['generate_content', 'document_create', 'record'])
    expect(result.steps[2]!.output).toMatch(/^文書「夜の日記」を作成した: 文書「夜の日記」を作成しました/)
    const { libraryId } = await library(h)
    const diary = (await h.call<Item[]>('list_items', { building_id: libraryId })).find((i) => i.name === '夜の日記')!
    const view = await h.call<ItemContent>('item_view', { item_id: diary.id })
    expect(view.kind === 'document' && view.text).toBe('星がきれいだった。')
  })

  it('runs in the chat: a persona asked to write a diary answers through the playbook, and the document exists', async () => {
    const h = await start()
    const mio = await h.call<{ id: string }>('create_persona', { name: 'Mio' })
    const flow = await h.call<{ id: string }>('create_flow', { name: 'diary' })
    await h.call('update_flow', { id: flow.id, persona_id: mio.id })
    h.fake.script({
      provider: 'openai',
      times: 1,
      reply: JSON.stringify({ name: '朝の日記', description: '朝のこと', content: '雨の音で目が覚めた。' }),
    })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: '今日の日記を書く' })
    await h.next('chat_status', (s) => s.node_id === node_id && ['done', 'failed'].includes(s.state))
    const node = await h.call<{ response: string; status: string }>('get_node', { id: node_id })
    expect(node.status).toBe('complete')
    expect(node.response).toContain('朝の日記')
    const { libraryId } = await library(h)
    expect((await h.call<Item[]>('list_items', { building_id: libraryId })).some((i) => i.name === '朝の日記')).toBe(
      true,
    )
    // The playbook's memorize step left an episode in the persona's memory.
    const { units } = await h.call<{ units: Array<{ text: string }> }>('memory_list_units', {
      persona_id: mio.id,
      kind: 'episode',
    })
    expect(units.some((u) => u.text.includes('朝の日記'))).toBe(true)
  })

  it('falls back to plain chat when the model cannot follow the playbook', async () => {
    const h = await start()
    const mio = await h.call<{ id: string }>('create_persona', { name: 'Mio' })
    const flow = await h.call<{ id: string }>('create_flow', { name: 'diary' })
    await h.call('update_flow', { id: flow.id, persona_id: mio.id })
    h.fake.script({ provider: 'openai', times: 1, reply: 'not json at all' })
    h.fake.script({ provider: 'openai', times: 1, reply: 'Sure, here is a diary entry.' })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: '今日の日記を書く' })
    await h.next('chat_status', (s) => s.node_id === node_id && ['done', 'failed'].includes(s.state))
    expect(await h.call('get_node', { id: node_id })).toMatchObject({
      status: 'complete',
      response: 'Sure, here is a diary entry.',
    })
  })
})
