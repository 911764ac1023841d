import { z } from 'zod'
import { ModelRefText } from './persona'
import type { EventSpecs, MethodSpecs } from './spec'

export const Language = z.enum(['auto', 'ja', 'en'])
export const Theme = z.enum(['system', 'light', 'dark'])

/** Defaults for one purpose (NovelADV keeps chat and summarisation apart): model, temperature, reply length. */
export const PurposeDefaults = z.object({
  /** `provider:model`; null follows the environment variable, then the app default. */
  model: ModelRefText.nullable(),
  temperature: z.number().min(0).max(2).nullable(),
  max_tokens: z.number().int().min(1).max(1_000_000).nullable(),
})
export type PurposeDefaults = z.infer<typeof PurposeDefaults>

export const Settings = z.object({
  /** `auto` follows the OS or browser locale: Japanese when it is ja, English otherwise. */
  language: Language,
  theme: Theme,
  /** Tokens a conversation's context may use when its flow sets no budget of its own. */
  context_budget: z.number().int().min(256).max(2_000_000),
  /** Replies in conversations whose persona sets nothing else. */
  chat: PurposeDefaults,
  /** Summaries and tags (graph build, item summaries). */
  summary: PurposeDefaults,
  /** Who the user is to the personas: `{{user}}` in persona text, greetings, lorebooks and notes reads the name. */
  user: z.object({ name: z.string().max(100), description: z.string().max(10_000) }),
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
