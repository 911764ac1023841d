import type { StateCreator } from 'zustand'
import type { AppInfo } from '@shared/contract'
import type { Client, ConnectionState } from '../bridge'
import type { App } from './index'

export interface ConnectionSlice {
  connection: ConnectionState
  info: AppInfo | null
  loadInfo(): Promise<void>
}

export const connectionSlice =
  (client: Client): StateCreator<App, [], [], ConnectionSlice> =>
  (set) => ({
    connection: client.state(),
    info: null,
    async loadInfo() {
      const result = await client.invoke('app_info', {})
      if (result.ok) set({ info: result.value })
    },
  })
