import i18next from 'i18next'
import type { StateCreator } from 'zustand'
import type { World } from '@shared/contract'
import type { Client } from '../bridge'
import type { App, AppStore } from './app'
import type { AttachedImage, WorldSlice } from './worldState'

const imageMimes = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif'])

export const worldSlice =
  (_client: Client): StateCreator<App, [], [], WorldSlice> =>
  (set, get) => {
    async function refreshHere(world: World) {
      const here = world.user_building_id
      if (!here) return set({ hereItems: [] })
      const items = await get().invoke('list_items', { building_id: here })
      if (items && get().world?.user_building_id === here) set({ hereItems: items })
    }
    async function applyWorld(world: World) {
      const moved = get().world?.user_building_id !== world.user_building_id
      set({ world })
      if (moved) await refreshHere(world)
    }
    return {
      world: null,
      hereItems: [],
      openItemId: null,
      toolCalls: {},
      generatingPicture: false,
      attachedImages: [],

      async loadWorld() {
        const world = await get().invoke('get_world', {})
        if (!world) return
        set({ world })
        await refreshHere(world)
      },

      async createBuilding(name, kind) {
        await get().invoke('create_building', { name, kind })
      },

      async renameBuilding(id, name) {
        await get().invoke('update_building', { id, name })
      },

      async deleteBuilding(id) {
        await get().invoke('delete_building', { id })
      },

      async moveUser(buildingId) {
        const world = await get().invoke('move_to', { building_id: buildingId })
        if (world) await applyWorld(world)
      },

      openItem(id) {
        set({ openItemId: id })
      },

      applyItem(item) {
        const here = get().world?.user_building_id
        const inHere = item.owner?.kind === 'building' && item.owner.id === here
        set((s) => {
          const known = s.hereItems.some((i) => i.id === item.id)
          // An open modal whose item left closes for good, not again when the user follows it.
          const openItemId = !inHere && s.openItemId === item.id ? null : s.openItemId
          if (known)
            return {
              openItemId,
              hereItems: inHere
                ? s.hereItems.map((i) => (i.id === item.id ? item : i))
                : s.hereItems.filter((i) => i.id !== item.id),
            }
          return inHere ? { hereItems: [...s.hereItems, item] } : { openItemId }
        })
      },

      forgetItem(itemId) {
        set((s) => ({
          hereItems: s.hereItems.filter((i) => i.id !== itemId),
          openItemId: s.openItemId === itemId ? null : s.openItemId,
          attachedImages: s.attachedImages.filter((i) => i.itemId !== itemId),
        }))
      },

      async createItem(input) {
        const buildingId = get().world?.user_building_id ?? undefined
        const where = buildingId ? { building_id: buildingId } : {}
        const { name, description } = input
        const item =
          input.type === 'document'
            ? await get().invoke('document_create', { name, description, content: input.content, ...where })
            : await get().invoke('object_create', { name, description, ...where })
        if (!item) return null
        get().applyItem(item)
        get().toast('info', i18next.t('world.newItem.created', { name: item.name }))
        return item
      },

      async moveItem(itemId, buildingId) {
        const item = await get().invoke('item_move', { item_id: itemId, building_id: buildingId })
        if (!item) return
        get().applyItem(item)
        const building = get().world?.buildings.find((b) => b.id === buildingId)?.name ?? ''
        get().toast('info', i18next.t('world.moveItem.done', { name: item.name, building }))
      },

      async deleteItem(itemId) {
        const done = await get().invoke('item_delete', { item_id: itemId })
        if (!done) return
        get().forgetItem(itemId)
        const path = inHome(get().info?.home, done.trashed_path)
        // The toast's Undo restores exactly this deletion.
        const undo = { label: i18next.t('world.trash.undo'), run: () => void get().restoreItem(done.trash_id) }
        get().toast('info', i18next.t('world.deleteItem.done', { path }), undo)
      },

      async uploadPicture(file) {
        const personaId = get().flow?.persona_id
        const item = await get().invoke('picture_upload', {
          filename: file.name,
          data_base64: file.data_base64,
          ...(personaId ? { persona_id: personaId } : {}),
        })
        if (!item) return null
        get().applyItem(item)
        const mime = String(item.state.mime_type ?? '')
        if (imageMimes.has(mime)) {
          set((s) => ({
            attachedImages: [
              ...s.attachedImages,
              { itemId: item.id, name: item.name, mime: mime as AttachedImage['mime'], data_base64: file.data_base64 },
            ].slice(-8), // chat_send takes at most eight images
          }))
        }
        get().toast('info', i18next.t('world.pictureCreated', { name: item.name }))
        return item
      },

      async generatePicture(prompt) {
        const personaId = get().flow?.persona_id ?? undefined
        const buildingId = get().world?.user_building_id ?? undefined
        set({ generatingPicture: true })
        try {
          const item = await get().invoke('generate_image', {
            prompt,
            ...(personaId ? { persona_id: personaId } : {}),
            ...(buildingId ? { building_id: buildingId } : {}),
          })
          if (!item) return null
          get().applyItem(item)
          get().toast('info', i18next.t('world.pictureCreated', { name: item.name }))
          return item
        } finally {
          set({ generatingPicture: false })
        }
      },

      takeAttachedImages() {
        const images = get().attachedImages.map((i) => ({
          mime: i.mime,
          data_base64: i.data_base64,
          item_id: i.itemId,
        }))
        if (images.length > 0) set({ attachedImages: [] })
        return images
      },

      detachImage(itemId) {
        set((s) => ({ attachedImages: s.attachedImages.filter((i) => i.itemId !== itemId) }))
      },

      async loadToolCalls(flowId) {
        const list = await get().invoke('list_tool_calls', { flow_id: flowId })
        if (!list || get().flowId !== flowId) return
        set({ toolCalls: Object.fromEntries(list.map((e) => [e.node_id, e.calls])) })
      },
    }
  }

/** Subscribes the store to the world's events; called once when the store is made. */
export function wireWorldEvents(client: Client, store: AppStore): void {
  client.on('world_changed', ({ world }) => {
    const before = store.getState().world?.user_building_id
    store.setState({ world })
    if (before !== world.user_building_id) void store.getState().loadWorld()
  })
  client.on('item_updated', ({ item }) => store.getState().applyItem(item))
  client.on('item_deleted', ({ item_id }) => store.getState().forgetItem(item_id))
  client.on('tool_calls_recorded', ({ node_id, calls }) =>
    store.setState((s) => ({ toolCalls: { ...s.toolCalls, [node_id]: calls } })),
  )
  client.onState((connection) => {
    if (connection === 'connected') void store.getState().loadWorld()
  })
  // Tool calls belong to nodes of the open flow: load them whenever another flow opens.
  store.subscribe((state, previous) => {
    if (state.flowId === previous.flowId) return
    store.setState({ toolCalls: {} })
    if (state.flowId) void store.getState().loadToolCalls(state.flowId)
  })
}

/** A path under the data home as the user's file manager would show it (FILE_PATHs use `/`). */
function inHome(home: string | undefined, relative: string): string {
  if (!home) return relative
  const sep = home.includes('\\') && !home.includes('/') ? '\\' : '/'
  return `${home.replace(/[\\/]+$/, '')}${sep}${relative.split('/').join(sep)}`
}
