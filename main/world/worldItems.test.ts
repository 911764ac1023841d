import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Flow, Item, World } from '@shared/contract'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { buildingIds } from '../../tests/support/world/buildingIds'
import { sourceWorker } from '../../tests/support/sourceWorker'
import type { TrashRecord } from './files/itemTrash'
import { SUMMARY_BATCH } from './worldService'

// The user's own item changes: objects made by hand, items carried between buildings,
// and deletion that always leaves the item in trash/ rather than losing it.

const start = useLlmCore()

const names = async (h: LlmHarness, buildingId: string) =>
  (await h.call<Item[]>('list_items', { building_id: buildingId })).map((i) => i.name)

const refused = (h: LlmHarness, method: string, input: unknown) =>
  h.core.router.call(method, input, { transport: 'internal' })

const folder = (h: LlmHarness, name: string) => {
  const dir = join(h.core.paths.home, name)
  return existsSync(dir) ? readdirSync(dir).sort() : []
}

describe('objects the user creates', () => {
  it('are placed in the user’s building, or the one named, with no file and no summary to wait for', async () => {
    const h = await start()
    const { libraryId, museumId } = await buildingIds(h)
    const changed = h.next('world_changed')
    const lamp = await h.call<Item>('object_create', { name: '  ランプ  ', description: '真鍮のランプ。' })
    expect(lamp).toMatchObject({
      type: 'object',
      name: 'ランプ',
      description: '真鍮のランプ。',
      file_path: null,
      summary_status: 'none',
      owner: { kind: 'building', id: libraryId },
    })
    expect((await changed).world.buildings.find((b) => b.id === libraryId)!.item_count).toBe(3)
    const vase = await h.call<Item>('object_create', { name: '花瓶', description: '', building_id: museumId })
    expect(vase.owner).toEqual({ kind: 'building', id: museumId })
    expect(await names(h, museumId)).toEqual(['花瓶'])
    expect(h.events.some((e) => e.event === 'item_updated' && (e.data as { item: Item }).item.id === vase.id)).toBe(
      true,
    )
  })

  it('refuses a blank or too long name, a too long description and an unknown building, writing nothing', async () => {
    const h = await start()
    const { libraryId } = await buildingIds(h)
    const before = await names(h, libraryId)
    const bad = [
      { name: '   ', description: 'x' },
      { name: 'x'.repeat(201), description: 'x' },
      { name: 'ok', description: 'x'.repeat(10_001) },
      { name: 'ok' },
      { name: 'ok', description: 'x', file_path: 'documents/x.txt' },
    ]
    for (const input of bad)
      expect(await refused(h, 'object_create', input), JSON.stringify(input).slice(0, 60)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      })
    expect(await refused(h, 'object_create', { name: 'ok', description: '', building_id: 'nowhere' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'building nowhere not found' },
    })
    expect(await names(h, libraryId)).toEqual(before)
    const counts = (await h.call<World>('get_world', {})).buildings.map((b) => b.item_count)
    expect(counts).toEqual([0, 2])
  })
})

describe('moving items between buildings', () => {
  it('moves an item and tells every window: the item with its new owner, and the new counts', async () => {
    const h = await start()
    const { libraryId, museumId } = await buildingIds(h)
    const doc = await h.call<Item>('document_create', { name: '詩集', description: '短い詩', content: '春の詩' })
    const updated = h.next('item_updated', (e) => e.item.id === doc.id && e.item.owner?.id === museumId)
    const changed = h.next('world_changed')
    const moved = await h.call<Item>('item_move', { item_id: doc.id, building_id: museumId })
    expect(moved.owner).toEqual({ kind: 'building', id: museumId })
    expect(moved.file_path).toBe(doc.file_path)
    await updated
    const counts = (await changed).world.buildings.map((b) => [b.kind, b.item_count])
    expect(counts).toEqual([
      ['museum', 1],
      ['library', 2],
    ])
    expect(await names(h, museumId)).toEqual(['詩集'])
    expect(await names(h, libraryId)).not.toContain('詩集')
    // The file did not move and still opens.
    expect(await h.call('item_view', { item_id: doc.id })).toMatchObject({ kind: 'document', text: '春の詩' })
  })

  it('refuses an unknown building or item by name, and the item stays where it was', async () => {
    const h = await start()
    const { libraryId } = await buildingIds(h)
    const desk = (await h.call<Item[]>('list_items', { building_id: libraryId })).find((i) => i.type === 'object')!
    expect(await refused(h, 'item_move', { item_id: desk.id, building_id: 'atlantis' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'building atlantis not found' },
    })
    expect(await refused(h, 'item_move', { item_id: 'ghost', building_id: libraryId })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'item ghost not found' },
    })
    expect((await h.call<Item>('get_item', { item_id: desk.id })).owner).toEqual({ kind: 'building', id: libraryId })
  })
})

describe('deleting items', () => {
  it('moves a document’s file, summary and history into trash/, then it is gone everywhere; twice is not_found', async () => {
    const h = await start()
    const { libraryId } = await buildingIds(h)
    const doc = await h.call<Item>('document_create', { name: '日記', description: '日記', content: '一日目' })
    // A summary beside the file, and a second version in the history.
    await h.call('item_use', {
      item_id: doc.id,
      action_json: JSON.stringify({ action_type: 'update_description', description: '二日分の日記' }),
    })
    await h.call('document_write', { item_id: doc.id, content: '一日目\n二日目' })
    const fileName = doc.file_path!.slice('documents/'.length)

    const deleted = h.next('item_deleted')
    const changed = h.next('world_changed')
    const result = await h.call<{ item_id: string; trash_id: string; trashed_path: string }>('item_delete', {
      item_id: doc.id,
    })
    expect(result.item_id).toBe(doc.id)
    expect(result.trashed_path).toMatch(/^trash\/\d{8}_\d{6}_[0-9a-f-]{36}$/)
    expect(result.trashed_path).toBe(`trash/${result.trash_id}`)
    expect(await deleted).toEqual({ item_id: doc.id })
    expect((await changed).world.buildings.find((b) => b.id === libraryId)!.item_count).toBe(2)

    const trash = join(h.core.paths.home, result.trashed_path)
    expect(readdirSync(trash).sort()).toEqual([fileName, `${fileName}.summary.txt`, 'item.json'].sort())
    expect(readFileSync(join(trash, fileName), 'utf8')).toBe('一日目\n二日目')
    expect(readFileSync(join(trash, `${fileName}.summary.txt`), 'utf8')).toBe('二日分の日記')
    expect(folder(h, 'documents')).not.toContain(fileName)
    const record = JSON.parse(readFileSync(join(trash, 'item.json'), 'utf8')) as TrashRecord
    expect(record).toMatchObject({
      kind: 'loomverse.trashed_item',
      item: { id: doc.id, name: '日記', owner: { kind: 'building', id: libraryId } },
      files: [fileName, `${fileName}.summary.txt`],
    })
    expect(record.versions.map((v) => [v.version, v.action, v.content])).toEqual([
      [2, 'write', '一日目\n二日目'],
      [1, 'create', '一日目'],
    ])

    expect(await names(h, libraryId)).not.toContain('日記')
    for (const method of ['item_view', 'get_item', 'list_document_versions'])
      expect(await refused(h, method, { item_id: doc.id })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const rows = (table: string) =>
      (h.core.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ITEM_ID = ?`).get(doc.id) as { n: number }).n
    expect([rows('item'), rows('item_location'), rows('document_version')]).toEqual([0, 0, 0])

    expect(await refused(h, 'item_delete', { item_id: doc.id })).toEqual({
      ok: false,
      error: { code: 'not_found', message: `item ${doc.id} not found` },
    })
    expect(folder(h, 'trash')).toHaveLength(1)
  })

  it('keeps an object’s record and the demo user guide like any other item', async () => {
    const h = await start()
    const { libraryId } = await buildingIds(h)
    const [desk, guide] = await h.call<Item[]>('list_items', { building_id: libraryId })
    const deskGone = await h.call<{ trashed_path: string }>('item_delete', { item_id: desk!.id })
    expect(readdirSync(join(h.core.paths.home, deskGone.trashed_path))).toEqual(['item.json'])
    const guideGone = await h.call<{ trashed_path: string }>('item_delete', { item_id: guide!.id })
    const guideFile = guide!.file_path!.slice('documents/'.length)
    expect(readFileSync(join(h.core.paths.home, guideGone.trashed_path, guideFile), 'utf8')).toContain(
      'Loomverse 使い方ガイド',
    )
    expect(await names(h, libraryId)).toEqual([])
    expect(folder(h, 'documents')).toEqual([])
    // An empty library can go now.
    await h.call('delete_building', { id: libraryId })
  })

  it('refuses an item whose FILE_PATH would leave its folder, touching nothing', async () => {
    const h = await start()
    const doc = await h.call<Item>('document_create', { name: 'x', description: 'x', content: 'x' })
    h.core.db.prepare('UPDATE item SET FILE_PATH = ? WHERE ITEM_ID = ?').run('documents/../loomverse.db', doc.id)
    expect(await refused(h, 'item_delete', { item_id: doc.id })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    })
    expect(await h.call<Item>('get_item', { item_id: doc.id })).toMatchObject({ name: 'x' })
    expect(folder(h, 'trash')).toEqual([])
    expect(existsSync(h.core.paths.db)).toBe(true)
  })

  it('puts the files back when the rows cannot be removed, so a failed delete changes nothing', async () => {
    const h = await start()
    const doc = await h.call<Item>('document_create', { name: 'x', description: 'x', content: 'keep me' })
    // A deferred foreign key fails only at COMMIT: after the files have moved into the trash.
    h.core.db.exec(`CREATE TABLE pin (ITEM_ID TEXT REFERENCES item (ITEM_ID) DEFERRABLE INITIALLY DEFERRED)`)
    h.core.db.prepare('INSERT INTO pin VALUES (?)').run(doc.id)
    expect(await refused(h, 'item_delete', { item_id: doc.id })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/FOREIGN KEY/) },
    })
    expect(await h.call('item_view', { item_id: doc.id })).toMatchObject({ kind: 'document', text: 'keep me' })
    expect(await h.call('list_document_versions', { item_id: doc.id })).toHaveLength(1)
    expect(folder(h, 'trash')).toEqual([])
  })

  it('does not trip a persona that asks for the deleted item, nor the summary job still queued for it', async () => {
    const h = await start({
      jobWorker: sourceWorker(),
      env: { LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:summary-mini' },
    })
    h.fake.script({ provider: 'openai', model: 'summary-mini', reply: '要約。' })
    const summaryDone = h.next(
      'job_progress',
      (p) => p.job_id.startsWith(SUMMARY_BATCH) && (p.state === 'done' || p.state === 'failed'),
    )
    const doc = await h.call<Item>('document_create', { name: 'メモ', description: 'メモ', content: '消える文書' })
    await h.call('item_delete', { item_id: doc.id })
    // The job finds the item gone and ends quietly; no summary reappears beside a moved file.
    expect((await summaryDone).state).toBe('done')
    const fileName = doc.file_path!.slice('documents/'.length)
    expect(folder(h, 'documents').filter((n) => n.startsWith(fileName))).toEqual([])

    const flow = await h.call<Flow>('create_flow', { name: 'x' })
    h.fake.script({
      provider: 'openai',
      model: 'gpt-4o-mini',
      times: 1,
      reply: { toolCalls: [{ name: 'item_view', arguments: { item_id: doc.id } }] },
    })
    h.fake.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: 'もう無いみたい。' })
    const recorded = h.next('tool_calls_recorded')
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'メモを見て' })
    expect((await recorded).calls[0]).toMatchObject({
      name: 'item_view',
      is_error: true,
      result: `error: item ${doc.id} not found`,
    })
    await h.next('chat_status', (s) => s.node_id === node_id && ['done', 'failed'].includes(s.state))
    expect(await h.call('get_node', { id: node_id })).toMatchObject({
      status: 'complete',
      response: 'もう無いみたい。',
    })
  })
})
