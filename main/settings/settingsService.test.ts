import { describe, expect, it } from 'vitest'
import { appSchema } from '../appSchema'
import { openDatabase } from '../db/open'
import { EventBus } from '../kernel/events'
import { SettingsService, defaultSettings } from './settingsService'
import { useTwoConnections } from '../../tests/support/twoConnections'

const twoConnections = useTwoConnections()

function setup() {
  const { db } = openDatabase(':memory:', { domains: appSchema, label: 'loomverse.db' })
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

  it("reads a change another process made (the CLI's) at once, and hands out settings no caller can change", () => {
    const { db, other } = twoConnections()
    const service = new SettingsService(db, new EventBus())
    expect(service.get().context_budget).toBe(8000)
    new SettingsService(other, new EventBus()).update({
      context_budget: 32000,
      chat: { model: 'openai:gpt-4o', temperature: null, max_tokens: null },
    })
    expect(service.get().context_budget).toBe(32000)
    expect(service.get().chat.model).toBe('openai:gpt-4o')
    const handed = service.get()
    expect(() => {
      ;(handed.chat as { model: string | null }).model = 'changed'
    }).toThrow()
    expect(service.get().chat.model).toBe('openai:gpt-4o')
  })

  it('falls back to the default for a stored value this version does not accept', () => {
    const { db, service } = setup()
    db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)').run('theme', '"sepia"', 1)
    expect(service.get().theme).toBe('system')
  })
})
