import type { StateCreator } from 'zustand'
import type { Settings, SettingsPatch } from '@shared/contract'
import type { Client } from '../bridge'
import type { App } from './index'

export interface SettingsSlice {
  settings: Settings | null
  /** The last failure to load or save, shown to the user until the next success. */
  settingsError: string | null
  loadSettings(): Promise<void>
  updateSettings(patch: SettingsPatch): Promise<void>
}

export const settingsSlice =
  (client: Client): StateCreator<App, [], [], SettingsSlice> =>
  (set) => ({
    settings: null,
    settingsError: null,
    async loadSettings() {
      const result = await client.invoke('get_settings', {})
      set(result.ok ? { settings: result.value, settingsError: null } : { settingsError: result.error.message })
    },
    async updateSettings(patch) {
      const result = await client.invoke('update_settings', patch)
      set(result.ok ? { settings: result.value, settingsError: null } : { settingsError: result.error.message })
    },
  })
