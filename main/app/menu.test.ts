import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it, vi } from 'vitest'
import { menuTemplate } from './menu'

const actions = () => ({
  copyDiagnostics: vi.fn(),
  openLogFolder: vi.fn(),
  checkForUpdates: vi.fn(),
  openHomepage: vi.fn(),
})
const items = (menu: MenuItemConstructorOptions) => menu.submenu as MenuItemConstructorOptions[]
const roles = (menu: MenuItemConstructorOptions) => items(menu).map((i) => i.role ?? i.label ?? i.type)

describe('application menu', () => {
  it('has File, Edit, View, Window and Help with the standard roles (their shortcuts come with them)', () => {
    const menu = menuTemplate({ appName: 'Loomverse', isMac: false, updatesEnabled: false }, actions())
    expect(menu.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'Window', 'help'])
    expect(roles(menu[0]!)).toEqual(['quit'])
    expect(roles(menu[1]!)).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']))
    expect(roles(menu[2]!)).toEqual(expect.arrayContaining(['reload', 'zoomIn', 'zoomOut', 'togglefullscreen']))
  })

  it('on macOS starts with the app menu (About, Hide, Quit) and closes windows from File', () => {
    const menu = menuTemplate({ appName: 'Loomverse', isMac: true, updatesEnabled: true }, actions())
    expect(menu[0]!.label).toBe('Loomverse')
    expect(roles(menu[0]!)).toEqual(
      expect.arrayContaining(['about', 'hide', 'hideOthers', 'quit', 'Check for Updates…']),
    )
    expect(roles(menu[1]!)).toEqual(['close'])
    expect(roles(menu[4]!)).toEqual(expect.arrayContaining(['front', 'zoom']))
  })

  it('Help copies diagnostics and opens the log folder; updates are greyed out until configured', () => {
    const acts = actions()
    const help = menuTemplate({ appName: 'Loomverse', isMac: false, updatesEnabled: false }, acts).at(-1)!
    const byLabel = (label: string) => items(help).find((i) => i.label === label)!
    ;(byLabel('Copy Diagnostics').click as () => void)()
    ;(byLabel('Open Log Folder').click as () => void)()
    expect(acts.copyDiagnostics).toHaveBeenCalledOnce()
    expect(acts.openLogFolder).toHaveBeenCalledOnce()
    expect(byLabel('Check for Updates…').enabled).toBe(false)
  })
})
