import type { StateCreator } from 'zustand'
import type { Client } from '../bridge'
import type { App } from './app'
import { errorText } from './errorText'
import type { SettingsSlice } from './settingsState'

export const settingsSlice =
  (client: Client): StateCreator<App, [], [], SettingsSlice> =>
  (set) => ({
    settings: null,
    settingsError: null,
    async loadSettings() {
      const result = await client.invoke('get_settings', {})
      set(result.ok ? { settings: result.value, settingsError: null } : { settingsError: errorText(result.error) })
    },
    async updateSettings(patch) {
      const result = await client.invoke('update_settings', patch)
      set(result.ok ? { settings: result.value, settingsError: null } : { settingsError: errorText(result.error) })
    },
  })
