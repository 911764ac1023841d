import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DocumentVersion, Item, TrashEntry } from '@shared/contract'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { buildingIds } from '../../tests/support/world/buildingIds'

// The way back from item_delete: the Trash list read from each folder's item.json, and
// item_restore putting rows, versions, file and summary back, all or nothing.

const start = useLlmCore({ language: 'ja' })

const refused = (h: LlmHarness, method: string, input: unknown) =>
  h.core.router.call(method, input, { transport: 'internal' })

const folder = (h: LlmHarness, ...parts: string[]) => {
  const dir = join(h.core.paths.home, ...parts)
  return existsSync(dir) ? readdirSync(dir).sort() : []
}

/** A document with a summary beside its file and two versions, then deleted. */
async function deletedDiary(h: LlmHarness, buildingId?: string) {
  const doc = await h.call<Item>('document_create', {
    name: '日記',
    description: '日記',
    content: '一日目',
    ...(buildingId ? { building_id: buildingId } : {}),
  })
  await h.call('item_use', {
    item_id: doc.id,
    action_json: JSON.stringify({ action_type: 'update_description', description: '二日分の日記' }),
  })
  await h.call('document_write', { item_id: doc.id, content: '一日目\n二日目' })
  const { trash_id } = await h.call<{ trash_id: string }>('item_delete', { item_id: doc.id })
  return { doc, trashId: trash_id, fileName: doc.file_path!.slice('documents/'.length) }
}

describe('the Trash list', () => {
  it('lists deleted items newest first, with when and where from, and says so when it changes', async () => {
    const h = await start()
    const { libraryId } = await buildingIds(h)
    const [desk] = await h.call<Item[]>('list_items', { building_id: libraryId })
    expect(await h.call('trash_list', {})).toEqual([])

    const changed = h.next('trash_changed')
    const deskGone = await h.call<{ trash_id: string }>('item_delete', { item_id: desk!.id })
    await changed
    const { trashId } = await deletedDiary(h)

    const list = await h.call<TrashEntry[]>('trash_list', {})
    expect(list.map((e) => e.trash_id)).toEqual([trashId, deskGone.trash_id])
    expect(list[0]).toEqual({
      trash_id: trashId,
      item: { name: '日記', type: 'document', description: '二日分の日記' },
      deleted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      from_building_id: libraryId,
      from_building_name: '図書館',
    })
    expect(list[1]!.item).toEqual({ name: desk!.name, type: 'object', description: desk!.description })
  })

  it('skips and logs a folder whose item.json is damaged or missing, and lists the rest', async () => {
    const logs: string[] = []
    const h = await start({ log: (m) => logs.push(m) })
    const good = await deletedDiary(h)
    const bad = await deletedDiary(h)
    writeFileSync(join(h.core.paths.trash, bad.trashId, 'item.json'), '{"kind": "loomverse.trashed_item", ')
    const empty = '20240101_000000_00000000-0000-4000-8000-000000000000'
    mkdirSync(join(h.core.paths.trash, empty))

    const list = await h.call<TrashEntry[]>('trash_list', {})
    expect(list.map((e) => e.trash_id)).toEqual([good.trashId])
    const skipped = logs.filter((m) => m.startsWith('[trash] skipped'))
    expect(skipped).toHaveLength(2)
    expect(skipped).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`trash/${bad.trashId}: `),
        `[trash] skipped trash/${empty}: item.json is missing`,
      ]),
    )
    // Restoring the damaged one is refused by name, and its folder stays for a person to look at.
    expect(await refused(h, 'item_restore', { trash_id: bad.trashId })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining(`trash/${bad.trashId}/item.json cannot be read`) },
    })
    expect(folder(h, 'trash', bad.trashId)).toHaveLength(3)
  })
})

describe('restoring a deleted item', () => {
  it('restores an item deleted before items had a summary of their own (a record without one)', async () => {
    const h = await start()
    const { trashId, doc } = await deletedDiary(h)
    const recordPath = join(h.core.paths.trash, trashId, 'item.json')
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { item: Record<string, unknown> }
    delete record.item.summary
    writeFileSync(recordPath, JSON.stringify(record))
    const restored = await h.call<Item>('item_restore', { trash_id: trashId })
    expect(restored).toMatchObject({ id: doc.id, description: '二日分の日記', summary: null })
  })

  it('brings a document back whole: same id, building, file, summary and every version; the folder goes', async () => {
    const h = await start()
    const { libraryId } = await buildingIds(h)
    const { doc, trashId, fileName } = await deletedDiary(h)

    const updated = h.next('item_updated', (e) => e.item.id === doc.id)
    const changed = h.next('world_changed')
    const trashChanged = h.next('trash_changed')
    const item = await h.call<Item>('item_restore', { trash_id: trashId })
    expect(item).toMatchObject({
      id: doc.id,
      name: '日記',
      description: '二日分の日記',
      file_path: doc.file_path,
      created: doc.created,
      owner: { kind: 'building', id: libraryId },
    })
    await Promise.all([updated, trashChanged])
    expect((await changed).world.buildings.find((b) => b.id === libraryId)!.item_count).toBe(3)

    expect(await h.call('item_view', { item_id: doc.id })).toMatchObject({ text: '一日目\n二日目' })
    expect(readFileSync(join(h.core.paths.documents, `${fileName}.summary.txt`), 'utf8')).toBe('二日分の日記')
    const versions = await h.call<DocumentVersion[]>('list_document_versions', { item_id: doc.id })
    expect(versions.map((v) => [v.version, v.action])).toEqual([
      [2, 'write'],
      [1, 'create'],
    ])
    expect(await h.call('get_document_version', { item_id: doc.id, version: 1 })).toMatchObject({ content: '一日目' })
    expect((await h.call<Item[]>('list_items', { building_id: libraryId })).map((i) => i.id)).toContain(doc.id)
    expect(folder(h, 'trash')).toEqual([])
    expect(await h.call('trash_list', {})).toEqual([])

    // Twice: the folder is gone, so there is nothing to restore.
    expect(await refused(h, 'item_restore', { trash_id: trashId })).toEqual({
      ok: false,
      error: { code: 'not_found', message: `trash ${trashId} not found` },
    })
  })

  it('lands in the user’s building when its own is gone, and an object comes back without files', async () => {
    const h = await start()
    const { libraryId, museumId } = await buildingIds(h)
    const { doc, trashId } = await deletedDiary(h, museumId)
    const [desk] = await h.call<Item[]>('list_items', { building_id: libraryId })
    const deskGone = await h.call<{ trash_id: string }>('item_delete', { item_id: desk!.id })
    await h.call('delete_building', { id: museumId })

    const entry = (await h.call<TrashEntry[]>('trash_list', {})).find((e) => e.trash_id === trashId)!
    expect(entry).toMatchObject({ from_building_id: museumId, from_building_name: null })
    expect(await h.call<Item>('item_restore', { trash_id: trashId })).toMatchObject({
      id: doc.id,
      owner: { kind: 'building', id: libraryId },
    })
    expect(await h.call<Item>('item_restore', { trash_id: deskGone.trash_id })).toMatchObject({
      id: desk!.id,
      type: 'object',
      file_path: null,
      owner: { kind: 'building', id: libraryId },
    })
  })

  it('takes a new id and a fresh file name when the old ones were taken meanwhile, touching neither', async () => {
    const h = await start()
    const { doc, trashId, fileName } = await deletedDiary(h)
    h.core.db
      .prepare(
        `INSERT INTO item (ITEM_ID, TYPE, NAME, DESCRIPTION, STATE_JSON, CREATED_AT, UPDATED_AT)
         VALUES (?, 'object', 'squatter', '', '{}', 'now', 'now')`,
      )
      .run(doc.id)
    writeFileSync(join(h.core.paths.documents, fileName), 'someone else’s text')

    const item = await h.call<Item>('item_restore', { trash_id: trashId })
    expect(item.id).not.toBe(doc.id)
    expect(item.file_path).toMatch(/^documents\/\d{8}_\d{6}_[0-9a-f-]{36}\.txt$/)
    expect(item.file_path).not.toBe(doc.file_path)
    expect(await h.call('item_view', { item_id: item.id })).toMatchObject({ text: '一日目\n二日目' })
    expect(await h.call('list_document_versions', { item_id: item.id })).toHaveLength(2)
    const newName = item.file_path!.slice('documents/'.length)
    expect(readFileSync(join(h.core.paths.documents, `${newName}.summary.txt`), 'utf8')).toBe('二日分の日記')
    expect(readFileSync(join(h.core.paths.documents, fileName), 'utf8')).toBe('someone else’s text')
    expect(await h.call('get_item', { item_id: doc.id })).toMatchObject({ name: 'squatter' })
  })

  it('refuses a trash_id that is not a trash folder name, or a link in its place, changing nothing', async () => {
    const h = await start()
    const { trashId } = await deletedDiary(h)
    const before = folder(h, 'trash', trashId)
    for (const bad of [
      '',
      '..',
      '../loomverse.db',
      `${trashId}/item.json`,
      `../trash/${trashId}`,
      trashId.toUpperCase(),
    ])
      expect(await refused(h, 'item_restore', { trash_id: bad }), bad).toMatchObject({
        ok: false,
        error: { code: 'bad_input', message: expect.stringContaining('trash_id must be the name of a trash folder') },
      })
    const link = '20240101_000000_00000000-0000-4000-8000-000000000000'
    symlinkSync(join(h.core.paths.trash, trashId), join(h.core.paths.trash, link))
    expect(await refused(h, 'item_restore', { trash_id: link })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    })
    expect(folder(h, 'trash', trashId)).toEqual(before)
    expect((h.core.db.prepare('SELECT count(*) AS n FROM item WHERE NAME = ?').get('日記') as { n: number }).n).toBe(0)
  })

  it('leaves the trash folder as it was and no rows behind when the restore fails part-way', async () => {
    const h = await start()
    const { doc, trashId, fileName } = await deletedDiary(h)
    const before = folder(h, 'trash', trashId)
    // A deferred foreign key fails only at COMMIT: after the files have moved out of the trash.
    h.core.db.exec(`
      CREATE TABLE pin (BUILDING_ID TEXT REFERENCES building (BUILDINGID) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER pin_item AFTER INSERT ON item BEGIN INSERT INTO pin VALUES ('nowhere'); END;
    `)
    expect(await refused(h, 'item_restore', { trash_id: trashId })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/FOREIGN KEY/) },
    })
    expect(folder(h, 'trash', trashId)).toEqual(before)
    expect(folder(h, 'trash')).toEqual([trashId])
    expect(folder(h, 'documents').filter((n) => n.startsWith(fileName))).toEqual([])
    const rows = (table: string) =>
      (h.core.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ITEM_ID = ?`).get(doc.id) as { n: number }).n
    expect([rows('item'), rows('item_location'), rows('document_version')]).toEqual([0, 0, 0])

    // Nothing was lost: once the obstacle is gone the same folder restores.
    h.core.db.exec('DROP TRIGGER pin_item')
    expect(await h.call<Item>('item_restore', { trash_id: trashId })).toMatchObject({ id: doc.id })
  })
})
