import { afterEach, describe, expect, it } from 'vitest'
import type { FlowSummary, Settings } from '@shared/contract'
import { en } from '../i18n/en'
import { ja } from '../i18n/ja'
import { keyLabel } from '../ui/keys'
import { createAppStore } from '.'
import { fakeClient } from '../../../tests/renderer/support/fakeClient'
import { command, commands } from './commands'
import { useShell } from './shell'

const settings = { language: 'en', theme: 'light' } as Settings

function key(k: string, mods: Partial<Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>> = {}) {
  return { key: k, code: '', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods } as KeyboardEvent
}

function lookup(messages: object, path: string): unknown {
  return path.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], messages)
}

/** A store whose bridge answers update_settings as the host does, recording each call. */
function storeWith(state: { flows?: FlowSummary[] } = {}) {
  const fake = fakeClient((method, input) =>
    method === 'update_settings' ? { ok: true, value: { ...settings, ...input } } : undefined,
  )
  const store = createAppStore(fake.client)
  store.setState({ settings, flows: state.flows ?? [] })
  return { store, calls: fake.calls }
}

afterEach(() => useShell.setState({ palette: null, shortcutsOpen: false, settingsOpen: false }))

describe('the command registry', () => {
  it('names every command in English and Japanese, with ids used once', () => {
    for (const c of commands) {
      expect(typeof lookup(en, c.label), `${c.id}: ${c.label} in en`).toBe('string')
      expect(typeof lookup(ja, c.label), `${c.id}: ${c.label} in ja`).toBe('string')
    }
    expect(new Set(commands.map((c) => c.id)).size).toBe(commands.length)
  })

  it('gives each key to one command at most', () => {
    const presses = [
      key('k', { ctrlKey: true }),
      key('k', { metaKey: true }),
      key('/', { ctrlKey: true }),
      key('z', { ctrlKey: true }),
      key('z', { ctrlKey: true, shiftKey: true }),
      key('y', { ctrlKey: true }),
      key('n', { ctrlKey: true, altKey: true }),
    ]
    for (const press of presses) expect(commands.filter((c) => c.keyTest?.(press)).length).toBe(1)
    expect(commands.filter((c) => c.keyTest?.(key('k'))).length).toBe(0)
  })

  it('opens the palette with Ctrl+K or Cmd+K, even from a text field, and closes it the same way', () => {
    const { store } = storeWith()
    const palette = command('palette.open')
    expect(palette.keyTest?.(key('k', { metaKey: true }))).toBe(true)
    expect(palette.keyTest?.(key('K', { ctrlKey: true, shiftKey: true }))).toBe(false)
    expect(palette.global).toBe(true)
    palette.run(store.getState())
    expect(useShell.getState().palette).toBe('commands')
    palette.run(store.getState())
    expect(useShell.getState().palette).toBeNull()
  })

  it('offers a theme only when it is not the one in use, and saves the one chosen', async () => {
    const { store, calls } = storeWith()
    expect(command('theme.light').enabled(store.getState())).toBe(false)
    expect(command('theme.dark').enabled(store.getState())).toBe(true)
    command('theme.dark').run(store.getState())
    await expect.poll(() => store.getState().settings?.theme).toBe('dark')
    expect(calls).toContainEqual({ method: 'update_settings', input: { theme: 'dark' } })
    expect(command('theme.dark').enabled(store.getState())).toBe(false)
  })

  it('switches conversation through the palette, and only when there is one to switch to', () => {
    const { store } = storeWith()
    expect(command('conversation.switch').enabled(store.getState())).toBe(false)
    store.setState({ flows: [{ id: 'f1', name: 'Trip', node_count: 2 } as FlowSummary] })
    expect(command('conversation.switch').enabled(store.getState())).toBe(true)
    command('conversation.switch').run(store.getState())
    expect(useShell.getState().palette).toBe('conversations')
  })

  it('keeps the palette, the shortcuts list and the settings from opening over each other', () => {
    useShell.getState().setSettingsOpen(true)
    useShell.getState().openPalette()
    expect(useShell.getState()).toMatchObject({ palette: 'commands', settingsOpen: false })
    useShell.getState().setShortcutsOpen(true)
    expect(useShell.getState()).toMatchObject({ palette: null, shortcutsOpen: true })
  })
})

describe('keyLabel', () => {
  it('writes Mod as Ctrl off a Mac', () => {
    expect(keyLabel('Mod+Shift+Z')).toBe('Ctrl+Shift+Z')
  })
})
