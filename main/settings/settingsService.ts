import { Settings, type SettingsPatch } from '@shared/contract'
import type { Db } from '../db/open'
import type { EventBus } from '../kernel/events'
import { writeSetting } from './settingRows'

const unset = { model: null, temperature: null, max_tokens: null }
export const defaultSettings: Settings = {
  language: 'auto',
  theme: 'system',
  context_budget: 8000,
  chat: unset,
  summary: unset,
}

/** App preferences in `loomverse.db`'s settings table, one row per key. */
export class SettingsService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

  get(): Settings {
    const rows = this.db.prepare('SELECT key, value_json FROM settings').all() as { key: string; value_json: string }[]
    const stored = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value_json) as unknown]))
    // A value an older or newer app wrote that this one does not accept falls back to its default.
    const merged: Record<string, unknown> = { ...defaultSettings }
    for (const key of Object.keys(defaultSettings) as (keyof Settings)[]) {
      const one = Settings.shape[key].safeParse(stored[key])
      if (one.success) merged[key] = one.data
    }
    return Settings.parse(merged)
  }

  update(patch: SettingsPatch): Settings {
    this.db
      .transaction(() => {
        for (const [key, value] of Object.entries(patch)) {
          if (value !== undefined) writeSetting(this.db, key, value)
        }
      })
      .immediate()
    const settings = this.get()
    this.bus.emit('settings_updated', settings)
    return settings
  }
}
