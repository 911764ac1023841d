import { z } from 'zod'
import { DisplayName } from './names'
import type { EventSpecs, MethodSpecs } from './spec'

// The world (SAIVerse seed 000): buildings, where the user and each persona are, and the
// items a building holds — objects, pictures and documents with their summaries.

const Id = z.string().min(1).max(200)
const Name = DisplayName(200)
const Description = z.string().max(10_000)
/** A document's full text. */
const DocumentText = z.string().max(2_000_000)

export const BuildingKind = z.enum(['room', 'museum', 'library', 'other'])
export type BuildingKind = z.infer<typeof BuildingKind>

export const Building = z.object({
  id: Id,
  name: z.string(),
  description: z.string(),
  kind: BuildingKind,
  created: z.string(),
  updated: z.string(),
})
export type Building = z.infer<typeof Building>

/** A building as the sidebar lists it: who is there and how much it holds. */
export const BuildingView = Building.extend({
  user_here: z.boolean(),
  personas: z.array(z.object({ id: z.string(), name: z.string() })),
  item_count: z.number().int().nonnegative(),
})
export type BuildingView = z.infer<typeof BuildingView>

export const World = z.object({
  buildings: z.array(BuildingView),
  /** Where the user is; null only when there is no building at all. */
  user_building_id: z.string().nullable(),
  /** Every persona with where it is (null: it goes wherever the user is). */
  personas: z.array(z.object({ id: z.string(), name: z.string(), building_id: z.string().nullable() })),
})
export type World = z.infer<typeof World>

export const ItemType = z.enum(['object', 'picture', 'document'])
export type ItemType = z.infer<typeof ItemType>

/** `pending` while the summary job runs (the user's description shows meanwhile); `none` for objects. */
export const SummaryStatus = z.enum(['none', 'pending', 'ready', 'failed'])

export const Item = z.object({
  id: Id,
  type: ItemType,
  name: z.string(),
  /** The description the creator gave, kept as they wrote it. */
  description: z.string(),
  /** The automatic summary of a picture or document (≤ 300 characters) once made; null before, and for objects. */
  summary: z.string().nullable(),
  /** Relative to the data home (`image/…`, `documents/…`); null for objects. */
  file_path: z.string().nullable(),
  /** Free metadata: mime type, generation prompt, document version… */
  state: z.record(z.string(), z.unknown()),
  summary_status: SummaryStatus,
  owner: z.object({ kind: z.enum(['building', 'persona']), id: z.string() }).nullable(),
  created: z.string(),
  updated: z.string(),
})
export type Item = z.infer<typeof Item>

export const ItemContent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('picture'), item: Item, mime: z.string(), data_base64: z.string() }),
  z.object({ kind: z.literal('document'), item: Item, text: z.string() }),
])
export type ItemContent = z.infer<typeof ItemContent>

export const DocumentVersion = z.object({
  version: z.number().int().positive(),
  /** `user`, or the persona's id, or `system` for the demo world. */
  author: z.string(),
  /** What made it: create, patch_content, write, revert… */
  action: z.string(),
  chars: z.number().int().nonnegative(),
  created: z.string(),
})
export type DocumentVersion = z.infer<typeof DocumentVersion>

export const ToolCallRecord = z.object({
  seq: z.number().int().nonnegative(),
  name: z.string(),
  /** The arguments as the model wrote them (JSON text). */
  arguments: z.string(),
  result: z.string(),
  is_error: z.boolean(),
  created: z.string(),
})
export type ToolCallRecord = z.infer<typeof ToolCallRecord>

/**
 * A trash folder's name, `YYYYMMDD_HHMMSS_<uuid>`, and nothing else: no separator, no `..`,
 * so a trash id can never name a path outside `trash/`.
 */
export const TRASH_ID = /^\d{8}_\d{6}_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const TrashId = z.string().regex(TRASH_ID, 'trash_id must be the name of a trash folder (YYYYMMDD_HHMMSS_<uuid>)')

/** A deleted item waiting in `trash/`, as the Trash list shows it. */
export const TrashEntry = z.object({
  trash_id: z.string(),
  item: Item.pick({ name: true, type: true, description: true }),
  /** When it was deleted (ISO 8601, like every other time in the contract). */
  deleted_at: z.string(),
  /** The building it stood in; null if a persona held it. */
  from_building_id: z.string().nullable(),
  /** That building's name; null once the building is gone (a restore then lands in the user's building). */
  from_building_name: z.string().nullable(),
})
export type TrashEntry = z.infer<typeof TrashEntry>

export const PlaybookName = z.enum(['item_view_playbook', 'item_edit_playbook', 'document_create_playbook'])
export type PlaybookName = z.infer<typeof PlaybookName>

export const PlaybookStep = z.object({ node: z.string(), type: z.string(), output: z.string() })

export const worldMethods = {
  /** Buildings, where everyone is: all the sidebar needs in one answer. */
  get_world: { input: z.object({}).strict(), output: World },
  list_buildings: { input: z.object({}).strict(), output: z.array(BuildingView) },
  create_building: {
    input: z.object({ name: Name, description: Description.optional(), kind: BuildingKind.optional() }).strict(),
    output: Building,
  },
  update_building: {
    input: z
      .object({ id: Id, name: Name.optional(), description: Description.optional(), kind: BuildingKind.optional() })
      .strict(),
    output: Building,
  },
  /** Refused while it still holds items; whoever is inside moves to another building. */
  delete_building: { input: z.object({ id: Id }).strict(), output: z.object({ id: Id }) },
  /** Moves the user, or the persona named, into a building. */
  move_to: { input: z.object({ building_id: Id, persona_id: Id.optional() }).strict(), output: World },

  list_items: { input: z.object({ building_id: Id }).strict(), output: z.array(Item) },
  get_item: { input: z.object({ item_id: Id }).strict(), output: Item },
  /** A picture's bytes (base64) or a document's full text; objects cannot be viewed. */
  item_view: { input: z.object({ item_id: Id }).strict(), output: ItemContent },
  /** A new document item in the persona's (else the user's) current building; summarised in the background. */
  document_create: {
    input: z
      .object({
        name: Name,
        description: Description,
        content: DocumentText,
        building_id: Id.optional(),
        persona_id: Id.optional(),
      })
      .strict(),
    output: Item,
  },
  /**
   * Applies an action written as JSON text (the seed's `item_use`):
   * `{"action_type":"update_description","description":"…"}` for any item, or
   * `{"action_type":"patch_content","patch":"…"}` for documents — plain text is appended,
   * a unified diff is applied strictly (all hunks or nothing).
   */
  item_use: {
    input: z.object({ item_id: Id, action_json: z.string().max(2_000_000), persona_id: Id.optional() }).strict(),
    output: z.object({ item: Item, message: z.string() }),
  },
  /** The user replaces a document's text (a new version; earlier ones stay). */
  document_write: { input: z.object({ item_id: Id, content: DocumentText }).strict(), output: Item },
  list_document_versions: { input: z.object({ item_id: Id }).strict(), output: z.array(DocumentVersion) },
  get_document_version: {
    input: z.object({ item_id: Id, version: z.number().int().positive() }).strict(),
    output: DocumentVersion.extend({ content: z.string() }),
  },
  /** Makes an earlier version current again, as a new version. */
  revert_document: {
    input: z.object({ item_id: Id, version: z.number().int().positive() }).strict(),
    output: Item,
  },
  /** A new object item (a name and a description, no file) in the building named, else the user's. */
  object_create: {
    input: z.object({ name: Name, description: Description, building_id: Id.optional() }).strict(),
    output: Item,
  },
  /** Puts an item in another building (also one a persona was holding). */
  item_move: { input: z.object({ item_id: Id, building_id: Id }).strict(), output: Item },
  /**
   * Deletes an item without losing it for good: its file, summary and a record of the item
   * (with every document version) move to a new folder under `trash/` in the data home,
   * then the rows go. `trashed_path` is that folder, relative to the data home.
   */
  item_delete: {
    input: z.object({ item_id: Id }).strict(),
    /** `trash_id` restores exactly this deletion (`item_restore`); the path is relative to the data home. */
    output: z.object({ item_id: Id, trash_id: TrashId, trashed_path: z.string() }),
  },
  /** Deleted items waiting in `trash/`, newest first. A folder whose `item.json` cannot be read is left out (and logged). */
  trash_list: { input: z.object({}).strict(), output: z.array(TrashEntry) },
  /**
   * Puts a deleted item back: its rows (same id), document versions, file and summary, in
   * the building it came from, else the user's; then its trash folder goes. `trash_id` is
   * the folder's name, as `item_delete` answered it. All or nothing:
   * a restore that fails leaves the trash folder as it was.
   */
  item_restore: { input: z.object({ trash_id: TrashId }).strict(), output: Item },
  /** Stores an uploaded image (PNG, JPEG, WebP, GIF) as a picture item in the building (default: the user's). */
  picture_upload: {
    input: z
      .object({
        building_id: Id.optional(),
        filename: z.string().max(500),
        data_base64: z.string().max(60_000_000),
        /** Whose lightweight vision model summarises it (the open conversation's persona). */
        persona_id: Id.optional(),
      })
      .strict(),
    output: Item,
  },
  /** Generates a picture with the persona's image model and places it in its building (or `building_id`). */
  generate_image: {
    input: z
      .object({
        prompt: z.string().trim().min(1).max(10_000),
        persona_id: Id.optional(),
        /** Where the picture goes; the persona's building by default (the user's, from the sidebar). */
        building_id: Id.optional(),
      })
      .strict(),
    output: Item,
  },

  /** Tool calls the persona made while answering, per node of the flow. */
  list_tool_calls: {
    input: z.object({ flow_id: Id }).strict(),
    output: z.array(z.object({ node_id: z.string(), calls: z.array(ToolCallRecord) })),
  },
  /** Which playbook the meta router picks for the user's words; null means normal chat. */
  route_playbook: {
    input: z.object({ text: z.string().max(100_000) }).strict(),
    output: z.object({ playbook: PlaybookName.nullable() }),
  },
  /** Runs a playbook (the routed one unless named) for a persona, step by step. */
  run_playbook: {
    input: z
      .object({ text: z.string().min(1).max(100_000), playbook: PlaybookName.optional(), persona_id: Id.optional() })
      .strict(),
    output: z.object({ playbook: PlaybookName.nullable(), steps: z.array(PlaybookStep), output: z.string() }),
  },
} as const satisfies MethodSpecs

export const worldEvents = {
  /** Buildings or whereabouts changed. */
  world_changed: z.object({ world: World }),
  /** An item was created or changed (summary arrived, text patched, moved). */
  item_updated: z.object({ item: Item }),
  /** An item was deleted (its files are in the trash folder). */
  item_deleted: z.object({ item_id: z.string() }),
  /** Something went into or came out of `trash/`: Trash lists should load again. */
  trash_changed: z.object({}),
  /** A reply called tools; `calls` is everything recorded on that node so far. */
  tool_calls_recorded: z.object({ node_id: z.string(), calls: z.array(ToolCallRecord) }),
} as const satisfies EventSpecs
