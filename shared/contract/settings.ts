import { z } from 'zod'
import type { EventSpecs, MethodSpecs } from './spec'

export const Language = z.enum(['auto', 'ja', 'en'])
export const Theme = z.enum(['system', 'light', 'dark'])

export const Settings = z.object({
  /** `auto` follows the OS or browser locale: Japanese when it is ja, English otherwise. */
  language: Language,
  theme: Theme,
})
export type Settings = z.infer<typeof Settings>

export const SettingsPatch = Settings.partial().strict()
export type SettingsPatch = z.infer<typeof SettingsPatch>

export const settingsMethods = {
  get_settings: { input: z.object({}).strict(), output: Settings },
  /** Changes only the keys given; every window hears `settings_updated`. */
  update_settings: { input: SettingsPatch, output: Settings },
} as const satisfies MethodSpecs

export const settingsEvents = {
  settings_updated: Settings,
} as const satisfies EventSpecs
