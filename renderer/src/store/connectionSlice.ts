import type { StateCreator } from 'zustand'
import type { AppInfo } from '@shared/contract'
import type { Client, ConnectionState } from '../bridge'
import type { App } from './index'

export interface ConnectionSlice {
  connection: ConnectionState
  info: AppInfo | null
  loadInfo(): Promise<void>
  /** Browser mode: a new access token; this tab reopens with it (the host disconnects the others). */
  renewBrowserToken(): Promise<void>
}

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
