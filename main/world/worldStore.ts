import { randomUUID } from 'node:crypto'
import type { Building, DocumentVersion, Item, ItemType, ToolCallRecord } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { Db } from '../db/open'
import { isoNow } from '../kernel/time'

interface BuildingRow {
  BUILDINGID: string
  NAME: string
  DESCRIPTION: string
  KIND: Building['kind']
  CREATED_AT: string
  UPDATED_AT: string
}

interface ItemRow {
  ITEM_ID: string
  TYPE: ItemType
  NAME: string
  DESCRIPTION: string
  FILE_PATH: string | null
  STATE_JSON: string
  SUMMARY_STATUS: Item['summary_status']
  SUMMARY: string | null
  CREATED_AT: string
  UPDATED_AT: string
  OWNER_KIND: 'building' | 'persona' | null
  OWNER_ID: string | null
}

const ITEM_SELECT = `SELECT i.*, l.OWNER_KIND, l.OWNER_ID FROM item i LEFT JOIN item_location l ON l.ITEM_ID = i.ITEM_ID`

/** The world's rows in loomverse.db: buildings, whereabouts, items, document history, tool calls. Bound parameters only. */
export class WorldStore {
  constructor(readonly db: Db) {}

  // — buildings —

  buildings(): Building[] {
    return (this.db.prepare('SELECT * FROM building ORDER BY CREATED_AT, rowid').all() as BuildingRow[]).map(toBuilding)
  }

  building(id: string): Building | null {
    const row = this.db.prepare('SELECT * FROM building WHERE BUILDINGID = ?').get(id) as BuildingRow | undefined
    return row ? toBuilding(row) : null
  }

  requireBuilding(id: string): Building {
    const b = this.building(id)
    if (!b) throw new AppError('not_found', `building ${id} not found`)
    return b
  }

  insertBuilding(b: { name: string; description?: string; kind?: Building['kind'] }): Building {
    const id = randomUUID()
    const now = isoNow()
    this.db
      .prepare(
        'INSERT INTO building (BUILDINGID, NAME, DESCRIPTION, KIND, CREATED_AT, UPDATED_AT) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(id, b.name, b.description ?? '', b.kind ?? 'room', now, now)
    return this.requireBuilding(id)
  }

  updateBuilding(id: string, patch: { name?: string; description?: string; kind?: Building['kind'] }): Building {
    const b = this.requireBuilding(id)
    this.db
      .prepare('UPDATE building SET NAME = ?, DESCRIPTION = ?, KIND = ?, UPDATED_AT = ? WHERE BUILDINGID = ?')
      .run(patch.name ?? b.name, patch.description ?? b.description, patch.kind ?? b.kind, isoNow(), id)
    return this.requireBuilding(id)
  }

  deleteBuilding(id: string): void {
    this.db.prepare('DELETE FROM building WHERE BUILDINGID = ?').run(id)
  }

  itemCount(buildingId: string): number {
    return (
      this.db
        .prepare("SELECT count(*) AS n FROM item_location WHERE OWNER_KIND = 'building' AND OWNER_ID = ?")
        .get(buildingId) as { n: number }
    ).n
  }

  // — whereabouts —

  /** Null before the first run set it up (see ensureDemoWorld). */
  userLocationRow(): { building_id: string | null } | null {
    const row = this.db.prepare('SELECT BUILDING_ID FROM user_location WHERE ID = 1').get() as
      { BUILDING_ID: string | null } | undefined
    return row ? { building_id: row.BUILDING_ID } : null
  }

  setUserBuilding(buildingId: string | null): void {
    this.db
      .prepare(
        `INSERT INTO user_location (ID, BUILDING_ID, UPDATED_AT) VALUES (1, ?, ?)
         ON CONFLICT (ID) DO UPDATE SET BUILDING_ID = excluded.BUILDING_ID, UPDATED_AT = excluded.UPDATED_AT`,
      )
      .run(buildingId, isoNow())
  }

  // — items —

  item(id: string): Item | null {
    const row = this.db.prepare(`${ITEM_SELECT} WHERE i.ITEM_ID = ?`).get(id) as ItemRow | undefined
    return row ? toItem(row) : null
  }

  requireItem(id: string): Item {
    const item = this.item(id)
    if (!item) throw new AppError('not_found', `item ${id} not found`)
    return item
  }

  itemsIn(buildingId: string): Item[] {
    return (
      this.db
        .prepare(`${ITEM_SELECT} WHERE l.OWNER_KIND = 'building' AND l.OWNER_ID = ? ORDER BY i.CREATED_AT, i.rowid`)
        .all(buildingId) as ItemRow[]
    ).map(toItem)
  }

  insertItem(item: {
    id?: string
    type: ItemType
    name: string
    description: string
    filePath: string | null
    state: Record<string, unknown>
    summaryStatus: Item['summary_status']
    summary?: string | null
    owner: { kind: 'building' | 'persona'; id: string }
    /** ISO time; now by default (a restored item keeps its own). */
    created?: string
  }): Item {
    const id = item.id ?? randomUUID()
    const now = isoNow()
    this.db
      .prepare(
        `INSERT INTO item (ITEM_ID, TYPE, NAME, DESCRIPTION, FILE_PATH, STATE_JSON, SUMMARY_STATUS, SUMMARY, CREATED_AT, UPDATED_AT)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        item.type,
        item.name,
        item.description,
        item.filePath,
        JSON.stringify(item.state),
        item.summaryStatus,
        item.summary ?? null,
        item.created ?? now,
        now,
      )
    this.db
      .prepare('INSERT INTO item_location (ITEM_ID, OWNER_KIND, OWNER_ID, UPDATED_AT) VALUES (?, ?, ?, ?)')
      .run(id, item.owner.kind, item.owner.id, now)
    return this.requireItem(id)
  }

  updateItem(
    id: string,
    patch: {
      description?: string
      summary?: string
      summaryStatus?: Item['summary_status']
      state?: Record<string, unknown>
    },
  ): Item {
    const item = this.requireItem(id)
    this.db
      .prepare(
        'UPDATE item SET DESCRIPTION = ?, SUMMARY = ?, SUMMARY_STATUS = ?, STATE_JSON = ?, UPDATED_AT = ? WHERE ITEM_ID = ?',
      )
      .run(
        patch.description ?? item.description,
        patch.summary ?? item.summary,
        patch.summaryStatus ?? item.summary_status,
        JSON.stringify(patch.state ?? item.state),
        isoNow(),
        id,
      )
    return this.requireItem(id)
  }

  /** Puts the item in a building, whoever held it before. */
  moveItem(id: string, buildingId: string): Item {
    this.db
      .prepare(
        `INSERT INTO item_location (ITEM_ID, OWNER_KIND, OWNER_ID, UPDATED_AT) VALUES (?, 'building', ?, ?)
         ON CONFLICT (ITEM_ID) DO UPDATE SET OWNER_KIND = excluded.OWNER_KIND, OWNER_ID = excluded.OWNER_ID,
           UPDATED_AT = excluded.UPDATED_AT`,
      )
      .run(id, buildingId, isoNow())
    return this.requireItem(id)
  }

  /**
   * Writes a deleted item's rows back from its trash record: the item as it was (its
   * created time too, so it sorts where it stood), in `buildingId`, with every document
   * version. Callers run it inside a transaction with the file moves.
   */
  restoreItem(
    item: Item,
    at: { id: string; filePath: string | null; buildingId: string },
    versions: Array<DocumentVersion & { content: string }>,
  ): Item {
    this.insertItem({
      id: at.id,
      type: item.type,
      name: item.name,
      description: item.description,
      filePath: at.filePath,
      state: item.state,
      summaryStatus: item.summary_status,
      summary: item.summary,
      owner: { kind: 'building', id: at.buildingId },
      created: item.created,
    })
    const insert = this.db.prepare(
      'INSERT INTO document_version (ITEM_ID, VERSION, CONTENT, AUTHOR, ACTION, CREATED_AT) VALUES (?, ?, ?, ?, ?, ?)',
    )
    for (const v of versions) insert.run(at.id, v.version, v.content, v.author, v.action, v.created)
    return this.requireItem(at.id)
  }

  /** Removes the item and every row about it (named, not left to ON DELETE CASCADE, so no PRAGMA is relied on). */
  deleteItem(id: string): void {
    this.db.prepare('DELETE FROM document_version WHERE ITEM_ID = ?').run(id)
    this.db.prepare('DELETE FROM item_location WHERE ITEM_ID = ?').run(id)
    this.db.prepare('DELETE FROM item WHERE ITEM_ID = ?').run(id)
  }

  // — document history —

  latestVersion(itemId: string): number {
    const row = this.db.prepare('SELECT max(VERSION) AS v FROM document_version WHERE ITEM_ID = ?').get(itemId) as {
      v: number | null
    }
    return row.v ?? 0
  }

  addVersion(itemId: string, content: string, author: string, action: string): number {
    const version = this.latestVersion(itemId) + 1
    this.db
      .prepare(
        'INSERT INTO document_version (ITEM_ID, VERSION, CONTENT, AUTHOR, ACTION, CREATED_AT) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(itemId, version, content, author, action, isoNow())
    return version
  }

  versions(itemId: string): DocumentVersion[] {
    return this.db
      .prepare(
        `SELECT VERSION AS version, AUTHOR AS author, ACTION AS action, length(CONTENT) AS chars, CREATED_AT AS created
           FROM document_version WHERE ITEM_ID = ? ORDER BY VERSION DESC`,
      )
      .all(itemId) as DocumentVersion[]
  }

  /** Every version with its text, newest first: what goes into the trash record of a deleted document. */
  versionsWithContent(itemId: string): Array<DocumentVersion & { content: string }> {
    return this.db
      .prepare(
        `SELECT VERSION AS version, AUTHOR AS author, ACTION AS action, length(CONTENT) AS chars, CREATED_AT AS created,
                CONTENT AS content
           FROM document_version WHERE ITEM_ID = ? ORDER BY VERSION DESC`,
      )
      .all(itemId) as Array<DocumentVersion & { content: string }>
  }

  version(itemId: string, version: number): (DocumentVersion & { content: string }) | null {
    return (
      (this.db
        .prepare(
          `SELECT VERSION AS version, AUTHOR AS author, ACTION AS action, length(CONTENT) AS chars, CREATED_AT AS created,
                  CONTENT AS content
           FROM document_version WHERE ITEM_ID = ? AND VERSION = ?`,
        )
        .get(itemId, version) as (DocumentVersion & { content: string }) | undefined) ?? null
    )
  }

  // — tool calls —

  addToolCall(nodeId: string, call: { name: string; arguments: string; result: string; isError: boolean }): void {
    this.db
      .prepare(
        `INSERT INTO node_tool_call (NODE_ID, SEQ, NAME, ARGUMENTS, RESULT, IS_ERROR, CREATED_AT)
         VALUES (?, (SELECT coalesce(max(SEQ) + 1, 0) FROM node_tool_call WHERE NODE_ID = ?), ?, ?, ?, ?, ?)`,
      )
      .run(nodeId, nodeId, call.name, call.arguments, call.result, call.isError ? 1 : 0, isoNow())
  }

  toolCalls(nodeId: string): ToolCallRecord[] {
    return (
      this.db
        .prepare(
          `SELECT SEQ AS seq, NAME AS name, ARGUMENTS AS arguments, RESULT AS result, IS_ERROR AS is_error, CREATED_AT AS created
           FROM node_tool_call WHERE NODE_ID = ? ORDER BY SEQ`,
        )
        .all(nodeId) as Array<Omit<ToolCallRecord, 'is_error'> & { is_error: number }>
    ).map((r) => ({ ...r, is_error: r.is_error === 1 }))
  }

  /** Every node that has tool calls, by node id. */
  nodesWithToolCalls(): string[] {
    return this.db.prepare('SELECT DISTINCT NODE_ID FROM node_tool_call ORDER BY NODE_ID').pluck().all() as string[]
  }
}

function toBuilding(r: BuildingRow): Building {
  return {
    id: r.BUILDINGID,
    name: r.NAME,
    description: r.DESCRIPTION,
    kind: r.KIND,
    created: r.CREATED_AT,
    updated: r.UPDATED_AT,
  }
}

function toItem(r: ItemRow): Item {
  let state: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(r.STATE_JSON)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) state = parsed as Record<string, unknown>
  } catch {
    // The CHECK keeps it valid JSON; a non-object is shown as empty state.
  }
  return {
    id: r.ITEM_ID,
    type: r.TYPE,
    name: r.NAME,
    description: r.DESCRIPTION,
    file_path: r.FILE_PATH,
    state,
    summary_status: r.SUMMARY_STATUS,
    summary: r.SUMMARY,
    owner: r.OWNER_KIND && r.OWNER_ID ? { kind: r.OWNER_KIND, id: r.OWNER_ID } : null,
    created: r.CREATED_AT,
    updated: r.UPDATED_AT,
  }
}
