import { describe, expect, it } from 'vitest'
import { appMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import { EventBus } from '../kernel/events'
import { SettingsService, defaultSettings } from './settingsService'

function setup() {
  const { db } = openDatabase(':memory:', { migrations: appMigrations, label: 'loomverse.db' })
  const bus = new EventBus()
  const heard: unknown[] = []
  bus.listen((event, data) => heard.push([event, data]))
  return { db, service: new SettingsService(db, bus), heard }
}

describe('settings', () => {
  it('starts from defaults, stores changes and tells every listener', () => {
    const { service, heard } = setup()
    expect(service.get()).toEqual(defaultSettings)
    expect(service.update({ theme: 'dark' })).toEqual({ ...defaultSettings, theme: 'dark' })
    expect(service.update({ language: 'ja' })).toEqual({ ...defaultSettings, language: 'ja', theme: 'dark' })
    expect(heard.at(-1)).toEqual(['settings_updated', { ...defaultSettings, language: 'ja', theme: 'dark' }])
  })

  it('falls back to the default for a stored value this version does not accept', () => {
    const { db, service } = setup()
    db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)').run('theme', '"sepia"', 1)
    expect(service.get().theme).toBe('system')
  })
})
