import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, app, dialog, ipcMain, safeStorage } from 'electron'
import { startCore, type Core } from '../core'
import { resolveHome } from '../kernel/home'
import { MemoryKeyStore, type KeyStore } from '../llm/keys/keyStore'
import { SealedKeyStore } from '../llm/keys/sealedKeyStore'
import { attachIpc, forwardEvents, trustOrigins } from './ipcAdapter'
import { hardenApp } from './security'
import { builtWorkers } from '../workers/builtWorkers'

// The Electron shell: one window over the same core `loomverse serve` uses. Kept thin;
// everything testable lives in the core and the IPC adapter.

const devServerUrl = process.env.ELECTRON_RENDERER_URL
const rendererIndex = join(import.meta.dirname, '../renderer/index.html')
const workers = builtWorkers(import.meta.dirname)

/** Keys sealed by the OS keychain under the app's user-data folder; without a safe keychain, for this run only. */
function keyStore(): KeyStore {
  try {
    return new SealedKeyStore(app.getPath('userData'), safeStorage)
  } catch (e) {
    console.error(`API keys will not be saved: ${e instanceof Error ? e.message : String(e)}`)
    return new MemoryKeyStore()
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  let core: Core | null = null
  let window: BrowserWindow | null = null

  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore()
    window?.focus()
  })

  app
    .whenReady()
    .then(() => {
      hardenApp()
      core = startCore({
        home: resolveHome(undefined),
        mode: 'electron',
        keyStore: keyStore(),
        jobWorker: workers.job,
        memoryWorker: workers.memory,
      })
      const origins = devServerUrl ? [new URL(devServerUrl).origin + '/'] : [pathToFileURL(rendererIndex).href]
      attachIpc(ipcMain, core.router, trustOrigins(origins))

      window = new BrowserWindow({
        width: 1280,
        height: 820,
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
      forwardEvents(core.bus, window.webContents)
      window.once('ready-to-show', () => window?.show())
      if (devServerUrl) void window.loadURL(devServerUrl)
      else void window.loadFile(rendererIndex)
    })
    .catch((e: unknown) => {
      // Most likely the data folder: a database from a newer Loomverse, or no permission.
      console.error('Loomverse failed to start:', e)
      dialog.showErrorBox('Loomverse could not start', e instanceof Error ? e.message : String(e))
      app.exit(1)
    })

  app.on('window-all-closed', () => app.quit())
  app.on('will-quit', (event) => {
    if (!core) return
    // Let the job worker finish its current write and the database close cleanly first.
    event.preventDefault()
    const closing = core
    core = null
    void closing.dispose().finally(() => app.quit())
  })
}
