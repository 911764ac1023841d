import { existsSync } from 'node:fs'
import { release } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  BrowserWindow,
  Menu,
  Notification,
  app,
  clipboard,
  dialog,
  ipcMain,
  safeStorage,
  screen,
  shell,
} from 'electron'
import { startCore, type Core } from '../core'
import { resolveHome } from '../kernel/home'
import { MemoryKeyStore, type KeyStore } from '../llm/keys/keyStore'
import { SealedKeyStore } from '../llm/keys/sealedKeyStore'
import { sealedSecretFile, type SecretFile } from '../kernel/secretFile'
import { CrashCounter, QUIT, childCrashNeedsNotice, goneLogLine, isCrash, rendererCrashDialog } from './crashRecovery'
import { LINK_SCHEME, linkHash, linkHashInArgv } from './deepLink'
import { diagnosticsText } from './diagnostics'
import { attachIpc, forwardEvents, trustOrigins } from './ipcAdapter'
import { startLogging } from './logging'
import { nativeCommandConfirmer } from './mcpCommandDialog'
import { menuTemplate } from './menu'
import { hardenApp } from './security'
import { checkForUpdates } from './updater'
import { updatesEnabled } from './updates'
import { loadWindowState, placeWindow, saveWindowState } from './windowState'
import { builtWorkers } from '../workers/builtWorkers'

// The Electron shell: windows, menu, crash dialogs and updates over the same core
// `loomverse serve` uses. Kept thin: the decisions live in the adapter modules beside it
// (crashRecovery, diagnostics, menu, updates, windowState), which are tested under Node.

const appLog = startLogging()
const devServerUrl = process.env.ELECTRON_RENDERER_URL
const rendererIndex = join(import.meta.dirname, '../renderer/index.html')
const workers = builtWorkers(import.meta.dirname)
const isMac = process.platform === 'darwin'
const homepage = 'https://github.com/loomverse/loomverse'

/** Keys sealed by the OS keychain under the app's user-data folder; without a safe keychain, for this run only. */
function keyStore(): KeyStore {
  try {
    return new SealedKeyStore(app.getPath('userData'), safeStorage)
  } catch (e) {
    appLog.error(`API keys will not be saved: ${e instanceof Error ? e.message : String(e)}`)
    return new MemoryKeyStore()
  }
}

/**
 * MCP servers' env and headers values sealed by the OS keychain under the user-data folder;
 * without a safe keychain, the plain owner-only file of browser mode (the Tools dialog says so).
 */
function mcpSecretFile(): SecretFile | undefined {
  try {
    return sealedSecretFile(join(app.getPath('userData'), 'mcp-secrets.sealed'), safeStorage)
  } catch (e) {
    appLog.error(`MCP servers' keys will be kept unencrypted: ${e instanceof Error ? e.message : String(e)}`)
    return undefined
  }
}

// `loomverse://open#flow=…&node=…` opens this app there (main/app/deepLink.ts). Run from the
// repository (`electron .`), the OS must be told how to start it with its script.
if (process.defaultApp && process.argv[1])
  app.setAsDefaultProtocolClient(LINK_SCHEME, process.execPath, [resolve(process.argv[1])])
else app.setAsDefaultProtocolClient(LINK_SCHEME)

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  let core: Core | null = null
  let window: BrowserWindow | null = null
  /** A link the app was started or asked to open before its window was there. */
  let pendingLink = linkHashInArgv(process.argv)
  const openLink = (hash: string | null) => {
    if (!hash) return
    const win = window
    if (!win || win.isDestroyed()) {
      pendingLink = hash
      return
    }
    if (win.isMinimized()) win.restore()
    win.focus()
    // The page follows a changed hash by itself (links.ts): no reload, nothing typed is lost.
    // The hash holds two checked ids and nothing else (linkHash).
    const go = () => void win.webContents.executeJavaScript(`location.hash = ${JSON.stringify(hash)}`)
    if (win.webContents.isLoading()) win.webContents.once('did-finish-load', go)
    else go()
  }
  // macOS hands the link here, before the app is ready as well as after.
  app.on('open-url', (event, url) => {
    event.preventDefault()
    openLink(linkHash(url))
  })
  let dataHome = ''
  const crashes = new CrashCounter()
  const canUpdate = updatesEnabled({
    packaged: app.isPackaged,
    updateConfigPresent: existsSync(join(process.resourcesPath, 'app-update.yml')),
    env: process.env,
  })

  const copyDiagnostics = () =>
    clipboard.writeText(
      diagnosticsText({
        app: { name: app.getName(), version: app.getVersion(), packaged: app.isPackaged },
        versions: {
          electron: process.versions.electron,
          chrome: process.versions.chrome,
          node: process.versions.node,
          v8: process.versions.v8,
        },
        os: { platform: process.platform, arch: process.arch, release: release() },
        paths: { data: dataHome, userData: app.getPath('userData'), logs: appLog.folder() },
        errors: appLog.recentErrors.list(),
      }),
    )

  const createWindow = (current: Core) => {
    const place = placeWindow(
      loadWindowState(app.getPath('userData')),
      screen.getAllDisplays().map((d) => d.workArea),
    )
    const win = new BrowserWindow({
      ...place,
      minWidth: 720,
      minHeight: 480,
      title: 'Loomverse',
      show: false,
      webPreferences: {
        preload: join(import.meta.dirname, '../preload/index.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    })
    window = win
    forwardEvents(current.bus, win.webContents)
    win.once('ready-to-show', () => {
      if (place.maximized) win.maximize()
      win.show()
    })
    win.on('close', () => {
      const bounds = win.getNormalBounds()
      try {
        saveWindowState(app.getPath('userData'), { ...bounds, maximized: win.isMaximized() })
      } catch (e) {
        appLog.error(`window size not saved: ${e instanceof Error ? e.message : String(e)}`)
      }
    })
    win.on('closed', () => {
      if (window === win) window = null
    })
    win.webContents.on('render-process-gone', (_event, details) => {
      appLog.error(goneLogLine('renderer', details))
      if (!isCrash(details) || win.isDestroyed()) return
      const repeating = crashes.record(Date.now())
      const options = rendererCrashDialog(details, appLog.folder())
      void dialog
        .showMessageBox(win, repeating ? { ...options, defaultId: QUIT } : options)
        .then(({ response }) => (response === QUIT ? app.quit() : win.webContents.reload()))
    })
    // A link the app was started with opens its conversation as the page loads.
    const hash = pendingLink?.slice(1)
    pendingLink = null
    if (devServerUrl) void win.loadURL(hash ? `${devServerUrl}#${hash}` : devServerUrl)
    else void win.loadFile(rendererIndex, hash ? { hash } : undefined)
  }

  // Windows and Linux start a second copy with the link among its arguments; it quits at once.
  app.on('second-instance', (_event, argv) => {
    if (window?.isMinimized()) window.restore()
    window?.focus()
    openLink(linkHashInArgv(argv))
  })

  app.on('child-process-gone', (_event, details) => {
    appLog.error(goneLogLine(details.type, { ...details, name: details.name ?? details.serviceName }))
    if (childCrashNeedsNotice(details) && window && !window.isDestroyed()) {
      void dialog.showMessageBox(window, {
        type: 'warning',
        message: `A helper process stopped (${details.type}: ${details.reason}).`,
        detail: `If something no longer responds, reload the window (View → Reload). Logs: ${appLog.folder()}`,
      })
    }
  })

  app
    .whenReady()
    .then(() => {
      hardenApp()
      dataHome = resolveHome(undefined)
      const started = startCore({
        home: dataHome,
        mode: 'electron',
        keyStore: keyStore(),
        mcpSecretFile: mcpSecretFile(),
        mcpCommands: nativeCommandConfirmer((options) =>
          window && !window.isDestroyed() ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options),
        ),
        jobWorker: workers.job,
        memoryWorker: workers.memory,
        log: (message) => appLog.error(message),
        backupSchedule: true,
        warmUp: true,
      })
      core = started
      const origins = devServerUrl ? [new URL(devServerUrl).origin + '/'] : [pathToFileURL(rendererIndex).href]
      attachIpc(ipcMain, started.router, trustOrigins(origins))
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(
          menuTemplate(
            { appName: app.getName(), isMac, updatesEnabled: canUpdate },
            {
              copyDiagnostics,
              openLogFolder: () => void shell.openPath(appLog.folder()),
              checkForUpdates: () => checkForUpdates(appLog, (n) => new Notification(n).show()),
              openHomepage: () => void shell.openExternal(homepage),
            },
          ),
        ),
      )
      createWindow(started)
      // macOS: clicking the dock icon with no window open brings one back.
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0 && core) createWindow(core)
      })
      if (canUpdate) checkForUpdates(appLog, (n) => new Notification(n).show())
    })
    .catch((e: unknown) => {
      // Most likely the data folder: a database from a newer Loomverse, or no permission.
      appLog.error(`Loomverse failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
      dialog.showErrorBox('Loomverse could not start', e instanceof Error ? e.message : String(e))
      app.exit(1)
    })

  // macOS apps stay open without windows until Cmd+Q; elsewhere closing the last window quits.
  app.on('window-all-closed', () => {
    if (!isMac) app.quit()
  })
  app.on('will-quit', (event) => {
    if (!core) return
    // Let the job worker finish its current write and the database close cleanly first.
    event.preventDefault()
    const closing = core
    core = null
    void closing.dispose().finally(() => app.quit())
  })
}
