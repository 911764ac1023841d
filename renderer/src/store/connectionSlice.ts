import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App } from './app'
import type { ConnectionSlice } from './connectionState'

export const connectionSlice =
  (client: Client): StateCreator<App, [], [], ConnectionSlice> =>
  (set, get) => ({
    connection: client.state(),
    info: null,
    async loadInfo() {
      const result = await client.invoke('app_info', {})
      if (result.ok) set({ info: result.value })
    },
    async renewBrowserToken() {
      const renewed = await get().invoke('browser_new_token', {})
      // The new address sets the new cookie; the conversation open now stays open (its link).
      if (renewed) window.location.assign(renewed.url + window.location.hash)
    },
  })
