import type { MenuItemConstructorOptions } from 'electron'

/** What the menu's own items do; the shell supplies them (roles cover the rest). */
export interface MenuActions {
  copyDiagnostics(): void
  openLogFolder(): void
  checkForUpdates(): void
  openHomepage(): void
}

export interface MenuOptions {
  appName: string
  isMac: boolean
  /** Off until a publish configuration exists (see updates.ts). */
  updatesEnabled: boolean
}

/**
 * The application menu: File, Edit, View, Window, Help with the platform's usual shortcuts
 * (roles give Cmd/Ctrl+Z, C, V, A, R, Q, W, M and full screen). On macOS the app menu comes
 * first and holds About, Hide and Quit, as Apple's guidelines expect.
 */
export function menuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const { appName, isMac } = options
  const updates: MenuItemConstructorOptions = {
    label: 'Check for Updates…',
    enabled: options.updatesEnabled,
    click: () => actions.checkForUpdates(),
  }
  const appMenu: MenuItemConstructorOptions[] = isMac
    ? [
        {
          label: appName,
          submenu: [
            { role: 'about' },
            updates,
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : []
  return [
    ...appMenu,
    { label: 'File', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(isMac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
        { role: 'delete' },
        { role: 'selectAll' },
      ],
    },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Window',
      submenu: isMac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      role: 'help',
      submenu: [
        { label: 'Copy Diagnostics', click: () => actions.copyDiagnostics() },
        { label: 'Open Log Folder', click: () => actions.openLogFolder() },
        ...(isMac ? [] : [{ type: 'separator' } as const, updates]),
        { type: 'separator' },
        { label: `${appName} Website`, click: () => actions.openHomepage() },
      ],
    },
  ]
}
