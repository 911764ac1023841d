import type { Item, TrashEntry } from '@shared/contract'

// What the trash slice holds and offers (its implementation: trashSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

/** Deleted items waiting in the trash folder, and the way back. */
export interface TrashSlice {
  /** Newest first, as trash_list answers. */
  trash: TrashEntry[]
  loadTrash(): Promise<void>
  /** Puts a deleted item back (in its building, else the user's) and says so. */
  restoreItem(trashId: string): Promise<Item | null>
}
