import { Settings, type SettingsPatch } from '@shared/contract'
import type { Db } from '../db/open'
import type { EventBus } from '../host/events'

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
    const upsert = this.db.prepare(
      `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
    )
    const now = Math.floor(Date.now() / 1000)
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) upsert.run(key, JSON.stringify(value), now)
      }
    })()
    const settings = this.get()
    this.bus.emit('settings_updated', settings)
    return settings
  }
}
