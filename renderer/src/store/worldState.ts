import type { BuildingKind, Item, ToolCallRecord, World } from '@shared/contract'

// What the world slice holds and offers (its implementation: worldSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** An uploaded picture waiting to go out with the next prompt. */
export interface AttachedImage {
  itemId: string
  name: string
  mime: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif'
  data_base64: string
}

/** The world's state in the renderer: buildings, where everyone is, items. */
export interface WorldSlice {
  world: World | null
  /** Items of the building the user is in, in order. */
  hereItems: Item[]
  /** The item whose modal is open. */
  openItemId: string | null
  /** Tool calls recorded on the open flow's nodes, by node id. */
  toolCalls: Record<string, ToolCallRecord[]>
  attachedImages: AttachedImage[]
  loadWorld(): Promise<void>
  createBuilding(name: string, kind: BuildingKind): Promise<void>
  renameBuilding(id: string, name: string): Promise<void>
  deleteBuilding(id: string): Promise<void>
  moveUser(buildingId: string): Promise<void>
  openItem(id: string | null): void
  applyItem(item: Item): void
  /** Forgets a deleted item: the list, the open modal, the next prompt's attachments. */
  forgetItem(itemId: string): void
  /** A new document or object in the user's building. */
  createItem(input: NewItem): Promise<Item | null>
  /** Carries an item to another building; its modal closes, as it leaves the list. */
  moveItem(itemId: string, buildingId: string): Promise<void>
  /** Deletes an item; its files go to the trash folder, which the toast names (with an Undo). */
  deleteItem(itemId: string): Promise<void>
  /** Stores an image file as a picture here and attaches it to the next prompt. */
  uploadPicture(file: { name: string; data_base64: string }): Promise<Item | null>
  /** True while a picture is being generated from the sidebar. */
  generatingPicture: boolean
  /** Asks the open conversation's persona's image model for a picture, hung where the user is. */
  generatePicture(prompt: string): Promise<Item | null>
  /** Hands the attached images to a send and clears them. */
  takeAttachedImages(): Array<{ mime: AttachedImage['mime']; data_base64: string; item_id: string }>
  detachImage(itemId: string): void
  loadToolCalls(flowId: string): Promise<void>
}

export type NewItem =
  | { type: 'document'; name: string; description: string; content: string }
  | { type: 'object'; name: string; description: string }
