import { Settings, type SettingsPatch } from '@shared/contract'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import type { Statement } from 'better-sqlite3'
import type { EventBus } from '../kernel/events'
import { writeSetting } from './settingRows'

const unset = { model: null, temperature: null, max_tokens: null }
export const defaultSettings: Settings = {
  language: 'auto',
  theme: 'system',
  context_budget: 8000,
  chat: unset,
  summary: unset,
  user: { name: '', description: '' },
}

/** What reading the settings needs: the service itself, or a turn's snapshot of them (`snapshot`). */
export interface SettingsReader {
  get(): Settings
}

/** App preferences in `loomverse.db`'s settings table, one row per key. */
export class SettingsService implements SettingsReader {
  /** Compiled statements, reused (db/statements.ts). */
  private readonly sql: (sql: string) => Statement

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {
    this.sql = statements(db)
  }

  /**
   * The settings as last read, with the database's data_version then: a chat turn asks for them
   * several times, and reading and validating every row each time was ~0.3 ms a turn. Another
   * connection's commit (the CLI's) changes data_version; this one's go through `update`.
   */
  private read: { version: number; settings: Settings } | null = null

  get(): Settings {
    const version = this.sql('PRAGMA data_version').pluck().get() as number
    if (this.read?.version === version) return this.read.settings
    const settings = deepFreeze(this.readRows())
    this.read = { version, settings }
    return settings
  }

  /**
   * The settings as they are now, read once for the whole of a chat turn: its model, budget,
   * context and lorebooks asked six times, and each ask is a statement (data_version) before the
   * model's request can leave. A change made meanwhile applies from the next turn.
   */
  snapshot(): SettingsReader {
    const settings = this.get()
    return { get: () => settings }
  }

  private readRows(): Settings {
    const keys = JSON.stringify(Object.keys(defaultSettings))
    const rows = this.sql('SELECT key, value_json FROM settings WHERE key IN (SELECT value FROM json_each(?))').all(
      keys,
    ) as { key: string; value_json: string }[]
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
    this.read = null
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

/** Handed out to every caller: none may change what the next one reads. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}
