import i18next from 'i18next'
import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { TrashSlice } from './trashState'

export const trashSlice: StateCreator<App, [], [], TrashSlice> = (set, get) => {
  // Deletes and restores in other windows each ask for a reload: only the newest answer lands.
  let loads = 0
  return {
    trash: [],

    async loadTrash() {
      const seq = ++loads
      const trash = await get().invoke('trash_list', {})
      if (trash && seq === loads) set({ trash })
    },

    async restoreItem(trashId) {
      const item = await get().invoke('item_restore', { trash_id: trashId })
      if (!item) {
        // Perhaps another window restored it first: show the trash as it is now.
        void get().loadTrash()
        return null
      }
      get().applyItem(item)
      get().toast('info', i18next.t('world.trash.restored', { name: item.name }))
      return item
    },
  }
}

/** Keeps every window's Trash list current: on connecting, and whenever something goes in or out. */
export function wireTrashEvents(client: Client, store: AppStore): void {
  client.on('trash_changed', () => void store.getState().loadTrash())
  client.onState((connection) => {
    if (connection === 'connected') void store.getState().loadTrash()
  })
}
