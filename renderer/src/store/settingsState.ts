import type { Settings, SettingsPatch } from '@shared/contract'

// What the settings slice holds and offers (its implementation: settingsSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface SettingsSlice {
  settings: Settings | null
  /** The last failure to load or save, shown to the user until the next success. */
  settingsError: string | null
  loadSettings(): Promise<void>
  updateSettings(patch: SettingsPatch): Promise<void>
}
