import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { basename } from 'node:path'
import {
  cleanName,
  type Building,
  type Item,
  type ItemContent,
  type Parsed,
  type ToolCallRecord,
  type TrashEntry,
  type World,
} from '@shared/contract'
import { AppError } from '@shared/errors'
import { parseModelRef } from '../llm/models'
import type { WorldDeps } from './worldDeps'
import { checkImage, decodeBase64, imageLimits } from './files/checkImage'
import { ItemFiles } from './files/itemFiles'
import { prepareTrash } from './files/itemTrash'
import { resolveItemPath } from './files/safePaths'
import { listTrashed, openTrash } from './files/trashRecords'
import { prepareRestore } from './files/trashRestore'
import { parseItemAction } from './itemAction'
import { applyPatch } from './patchText'
import { SUMMARIZE_ITEM, type SummarizePayload } from './summarizeItemJob'
import { uiLanguage } from '../kernel/language'
import { worldTexts, type WorldLanguage, type WorldTexts } from './worldText'
import { WorldStore } from './worldStore'

/** Who changed a document: the user, a persona (by id), or the app itself. */
export type Author = { kind: 'user' } | { kind: 'persona'; id: string } | { kind: 'system' }

/**
 * The world's operations, shared by the contract handlers (UI, scripts) and the persona's
 * tools: buildings and whereabouts, items and their files, summaries queued as jobs.
 * Every check runs before anything is written, so a refused request changes nothing.
 */
export class WorldService {
  readonly store: WorldStore
  readonly files: ItemFiles

  constructor(private readonly deps: WorldDeps) {
    this.store = new WorldStore(deps.db)
    this.files = new ItemFiles(deps.paths.home)
  }

  language(): WorldLanguage {
    return uiLanguage(this.deps.settings.get().language)
  }

  texts(): WorldTexts {
    return worldTexts(this.language())
  }

  world(): World {
    const userBuilding = this.store.userLocationRow()?.building_id ?? null
    const personas = this.deps.personas.whereabouts()
    // A persona that never moved keeps the user company.
    const whereIs = (p: { building_id: string | null }) => p.building_id ?? userBuilding
    return {
      user_building_id: userBuilding,
      personas,
      buildings: this.store.buildings().map((b) => ({
        ...b,
        user_here: b.id === userBuilding,
        personas: personas.filter((p) => whereIs(p) === b.id).map((p) => ({ id: p.id, name: p.name })),
        item_count: this.store.itemCount(b.id),
      })),
    }
  }

  private changed(): World {
    const world = this.world()
    this.deps.bus.emit('world_changed', { world })
    return world
  }

  emitItem(item: Item): Item {
    this.deps.bus.emit('item_updated', { item })
    return item
  }

  // — buildings and whereabouts —

  createBuilding(input: Parsed<'create_building'>): Building {
    const b = this.store.insertBuilding(input)
    // The first building is where the user stands.
    if (!this.store.userLocationRow()?.building_id) this.store.setUserBuilding(b.id)
    this.changed()
    return b
  }

  updateBuilding(input: Parsed<'update_building'>): Building {
    const b = this.store.updateBuilding(input.id, input)
    this.changed()
    return b
  }

  deleteBuilding(id: string): { id: string } {
    this.store.requireBuilding(id)
    const held = this.store.itemCount(id)
    if (held > 0) {
      throw new AppError(
        'conflict',
        `this building still holds ${held} item${held === 1 ? '' : 's'}; it was not deleted`,
        { key: 'building_not_empty', params: { held } },
      )
    }
    this.deps.db
      .transaction(() => {
        this.store.deleteBuilding(id)
        this.deps.personas.leaveBuilding(id)
        const user = this.store.userLocationRow()
        if (!user?.building_id) this.store.setUserBuilding(this.store.buildings()[0]?.id ?? null)
      })
      .immediate()
    this.changed()
    return { id }
  }

  moveTo(input: Parsed<'move_to'>): World {
    this.store.requireBuilding(input.building_id)
    if (input.persona_id) {
      this.deps.personas.setBuilding(input.persona_id, input.building_id)
    } else {
      this.store.setUserBuilding(input.building_id)
    }
    return this.changed()
  }

  /** The user's building; refused clearly when the world has none. */
  userBuilding(): string {
    const id = this.store.userLocationRow()?.building_id ?? this.store.buildings()[0]?.id
    if (!id) throw new AppError('conflict', this.texts().noBuilding)
    return id
  }

  /** A persona's building; one that never moved is wherever the user is. */
  personaBuilding(personaId: string | null | undefined): string {
    const own = personaId ? this.deps.personas.building(personaId) : null
    return own && this.store.building(own) ? own : this.userBuilding()
  }

  /**
   * The tool calls made in a flow's replies, by node. The flow's nodes are the graph's: read from
   * it and matched here against the nodes with calls (a few, beside a flow's thousands).
   */
  toolCallsOfFlow(flowId: string): Array<{ node_id: string; calls: ToolCallRecord[] }> {
    const members = new Set(this.deps.graph.memberIds(flowId))
    return this.store
      .nodesWithToolCalls()
      .filter((id) => members.has(id))
      .map((id) => ({ node_id: id, calls: this.store.toolCalls(id) }))
  }

  // — items —

  listItems(buildingId: string): Item[] {
    this.store.requireBuilding(buildingId)
    return this.store.itemsIn(buildingId)
  }

  view(itemId: string): ItemContent {
    const item = this.store.requireItem(itemId)
    if (item.type === 'object' || !item.file_path) throw new AppError('bad_request', this.texts().notViewable)
    if (item.type === 'picture') {
      const mime = typeof item.state.mime_type === 'string' ? item.state.mime_type : 'image/png'
      return { kind: 'picture', item, mime, data_base64: this.files.readBytes(item.file_path).toString('base64') }
    }
    return { kind: 'document', item, text: this.files.readText(item.file_path) }
  }

  documentCreate(input: Parsed<'document_create'>, author: Author): Item {
    const buildingId = input.building_id ?? this.personaBuilding(input.persona_id)
    this.store.requireBuilding(buildingId)
    const filePath = this.files.create('documents', 'txt', input.content)
    let item: Item
    try {
      item = this.deps.db
        .transaction(() => {
          const created = this.store.insertItem({
            type: 'document',
            name: input.name,
            description: input.description,
            filePath,
            state: { created_by: authorName(author) },
            summaryStatus: 'pending',
            owner: { kind: 'building', id: buildingId },
          })
          this.store.addVersion(created.id, input.content, authorName(author), 'create')
          return created
        })
        .immediate()
    } catch (e) {
      rmSync(resolveItemPath(this.deps.paths.home, filePath).path, { force: true })
      throw e
    }
    this.summarize(item, input.persona_id ?? null)
    this.changed()
    return this.emitItem(item)
  }

  /** Seed 000's `object`: a name and a description, no file and so no summary to make. */
  objectCreate(input: Parsed<'object_create'>): Item {
    const buildingId = input.building_id ?? this.userBuilding()
    this.store.requireBuilding(buildingId)
    const item = this.store.insertItem({
      type: 'object',
      name: input.name,
      description: input.description,
      filePath: null,
      state: { created_by: 'user' },
      summaryStatus: 'none',
      owner: { kind: 'building', id: buildingId },
    })
    this.changed()
    return this.emitItem(item)
  }

  /** Only the location row changes; files stay where they are (their path does not name the building). */
  moveItem(input: Parsed<'item_move'>): Item {
    this.store.requireItem(input.item_id)
    this.store.requireBuilding(input.building_id)
    const item = this.store.moveItem(input.item_id, input.building_id)
    this.changed()
    return this.emitItem(item)
  }

  /**
   * Nothing is lost for good: the files and a record of the item (every document version
   * included) go to a new `trash/…` folder first; the rows are removed in the same
   * transaction as the files move, and if either fails both are put back. A summary job
   * still running for the item finds it gone and stops; a persona asking for it is told
   * it was not found.
   */
  deleteItem(itemId: string): { item_id: string; trash_id: string; trashed_path: string } {
    const item = this.store.requireItem(itemId)
    const versions = item.type === 'document' ? this.store.versionsWithContent(item.id) : []
    const trash = prepareTrash(this.deps.paths, item, versions)
    try {
      this.deps.db
        .transaction(() => {
          this.store.deleteItem(item.id)
          trash.moveIn()
        })
        .immediate()
    } catch (e) {
      trash.undo()
      throw e
    }
    this.deps.bus.emit('item_deleted', { item_id: item.id })
    this.deps.bus.emit('trash_changed', {})
    this.changed()
    return { item_id: item.id, trash_id: basename(trash.path), trashed_path: trash.path }
  }

  /** Deleted items waiting in trash/, newest first, with the name of the building each came from. */
  trashList(): TrashEntry[] {
    const names = new Map(this.store.buildings().map((b) => [b.id, b.name]))
    const log = this.deps.log ?? ((m: string) => console.error(m))
    return listTrashed(this.deps.paths, log).map(({ trashId, record }) => {
      const from = record.item.owner?.kind === 'building' ? record.item.owner.id : null
      return {
        trash_id: trashId,
        item: { name: record.item.name, type: record.item.type, description: record.item.description },
        deleted_at: record.deleted,
        from_building_id: from,
        from_building_name: (from && names.get(from)) ?? null,
      }
    })
  }

  /**
   * deleteItem undone: the rows (same id unless something took it meanwhile), every document
   * version, the file and its summary back under their old names when free. It goes to the
   * building it came from, or the user's if that building is gone (or a persona held it).
   * Every check runs first; the rows and the file moves share one transaction and the moves
   * are reversed if it fails, so a failed restore leaves the trash folder as it was.
   */
  restoreItem(trashId: string): Item {
    const trashed = openTrash(this.deps.paths, trashId)
    const was = trashed.record.item
    const from = was.owner?.kind === 'building' ? this.store.building(was.owner.id) : null
    const buildingId = from?.id ?? this.userBuilding()
    const id = this.store.item(was.id) ? randomUUID() : was.id
    const move = prepareRestore(this.deps.paths.home, trashed)
    let item: Item
    try {
      item = this.deps.db
        .transaction(() => {
          const restored = this.store.restoreItem(
            was,
            { id, filePath: move.filePath, buildingId },
            trashed.record.versions,
          )
          move.moveOut()
          return restored
        })
        .immediate()
    } catch (e) {
      move.undo()
      throw e
    }
    move.finish()
    // The summary job that was running at deletion found the item gone and stopped: start it again.
    if (item.summary_status === 'pending') this.summarize(item, null)
    this.deps.bus.emit('trash_changed', {})
    this.changed()
    return this.emitItem(item)
  }

  itemUse(input: Parsed<'item_use'>, author: Author): { item: Item; message: string } {
    const t = this.texts()
    const item = this.store.requireItem(input.item_id)
    const action = parseItemAction(input.action_json)
    if (action.action_type === 'update_description') {
      const updated = this.store.updateItem(item.id, { description: action.description, summaryStatus: 'ready' })
      if (updated.file_path) this.files.writeSummary(updated.file_path, action.description)
      return { item: this.emitItem(updated), message: t.described }
    }
    if (item.type !== 'document' || !item.file_path) throw new AppError('bad_input', t.noPatchOnType(item.type))
    const before = this.files.readText(item.file_path)
    const patched = applyPatch(before, action.patch)
    if (!patched.ok) throw new AppError('bad_input', t.patchFailed(patched.reason))
    const updated = this.writeDocument(item, patched.text, author, 'patch_content', input.persona_id ?? null)
    return { item: updated, message: t.patched(patched.mode) }
  }

  documentWrite(itemId: string, content: string, author: Author): Item {
    const item = this.store.requireItem(itemId)
    if (item.type !== 'document' || !item.file_path)
      throw new AppError('bad_input', this.texts().noPatchOnType(item.type))
    return this.writeDocument(item, content, author, 'write', null)
  }

  revertDocument(itemId: string, version: number): Item {
    const item = this.store.requireItem(itemId)
    const old = this.store.version(itemId, version)
    if (!old) throw new AppError('not_found', `document ${itemId} has no version ${version}`)
    return this.writeDocument(item, old.content, { kind: 'user' }, `revert to v${version}`, null)
  }

  /** A new version: history row and file together, then a fresh summary. */
  private writeDocument(item: Item, content: string, author: Author, action: string, personaId: string | null): Item {
    const updated = this.deps.db
      .transaction(() => {
        this.store.addVersion(item.id, content, authorName(author), action)
        // The file is replaced inside the transaction: if the write fails, the version row rolls back.
        this.files.replace(item.file_path!, content)
        return this.store.updateItem(item.id, { summaryStatus: 'pending' })
      })
      .immediate()
    this.summarize(updated, personaId)
    return this.emitItem(updated)
  }

  pictureUpload(input: Parsed<'picture_upload'>): Item {
    const buildingId = input.building_id ?? this.userBuilding()
    this.store.requireBuilding(buildingId)
    const bytes = decodeBase64(input.data_base64)
    const type = checkImage(bytes, input.filename, imageLimits(this.deps.env), this.texts())
    const filePath = this.files.create('image', type.ext, bytes)
    // The file's name becomes the item's: cleaned like every name typed in (no bidi overrides, no controls).
    const name = cleanName(input.filename.replace(/\.[^.]*$/, '')).trim() || filePath.slice(6)
    const item = this.store.insertItem({
      type: 'picture',
      name: name.slice(0, 200),
      description: '',
      filePath,
      state: { mime_type: type.mime, source: 'upload', original_name: input.filename.slice(0, 500) },
      summaryStatus: 'pending',
      owner: { kind: 'building', id: buildingId },
    })
    this.summarize(item, input.persona_id ?? null)
    this.changed()
    return this.emitItem(item)
  }

  /**
   * Seed 000: a picture made by the persona's image model becomes a picture item in the
   * persona's building, with its summary queued like an upload's. Checked like an upload too:
   * what the provider sent is stored only if it really is a supported image.
   */
  async generateImage(input: Parsed<'generate_image'>, signal?: AbortSignal): Promise<Item> {
    const t = this.texts()
    const persona = this.deps.personas.find(input.persona_id)
    const text = persona?.image_model || this.deps.env.LOOMVERSE_IMAGE_MODEL
    if (!text) throw new AppError('unavailable', t.noImageModel)
    const ref = parseModelRef(text)
    const buildingId = input.building_id ?? this.personaBuilding(input.persona_id)
    this.store.requireBuilding(buildingId)
    const image = await this.deps.llm
      .connector(ref.provider)
      .generateImage({ model: ref.model, prompt: input.prompt, signal: signal ?? AbortSignal.timeout(180_000) })
    const bytes = decodeBase64(image.data_base64)
    const name = input.prompt.replace(/\s+/g, ' ').trim().slice(0, 60)
    const type = checkImage(bytes, name, imageLimits(this.deps.env), t)
    const filePath = this.files.create('image', type.ext, bytes)
    const item = this.store.insertItem({
      type: 'picture',
      name,
      description: '',
      filePath,
      state: { mime_type: type.mime, source: 'generated', prompt: input.prompt.slice(0, 2000), model: text },
      summaryStatus: 'pending',
      owner: { kind: 'building', id: buildingId },
    })
    this.summarize(item, input.persona_id ?? null)
    this.changed()
    return this.emitItem(item)
  }

  private summarize(item: Item, personaId: string | null): void {
    const payload: SummarizePayload = {
      item_id: item.id,
      home: this.deps.paths.home,
      language: this.language(),
      persona_id: personaId,
      version: item.type === 'document' ? this.store.latestVersion(item.id) : null,
    }
    const key = `${item.id}:${payload.version ?? 0}`
    const label = this.language() === 'ja' ? `要約を作成中: ${item.name}` : `Summarising ${item.name}`
    this.deps.jobs.enqueueBatch(`${SUMMARY_BATCH}${key}`, label, [
      { kind: SUMMARIZE_ITEM, payload, dedupeKey: `${SUMMARIZE_ITEM}:${key}` },
    ])
  }

  /** A summary job finished (or gave up): show the item as it now is. */
  summaryFinished(batch: string, failed: boolean): void {
    const [itemId = '', version = '0'] = batch.slice(SUMMARY_BATCH.length).split(':')
    const item = this.store.item(itemId)
    if (!item) return
    // A job for an older document version says nothing about the current summary.
    if (item.type === 'document' && Number(version) !== this.store.latestVersion(item.id)) return
    if (failed && item.summary_status === 'pending')
      this.emitItem(this.store.updateItem(item.id, { summaryStatus: 'failed' }))
    else this.emitItem(item)
  }
}

export const SUMMARY_BATCH = 'world-summary:'

function authorName(author: Author): string {
  return author.kind === 'persona' ? author.id : author.kind
}
