import electronUpdater from 'electron-updater'
import { updateReadyNotice } from './updates'

/**
 * Checks GitHub Releases (electron-builder.yml's publish entry) in the background, downloads
 * an update and shows a notification; it installs when the app quits. Never blocks, never
 * throws: a failed check is only logged.
 */
export function checkForUpdates(
  log: { info(m: string): void; error(m: string): void },
  notify: (notice: { title: string; body: string }) => void,
): void {
  const { autoUpdater } = electronUpdater
  autoUpdater.logger = { info: log.info, warn: log.info, error: log.error, debug: () => {} }
  autoUpdater.autoInstallOnAppQuit = true
  autoUpdater.removeAllListeners('update-downloaded')
  autoUpdater.once('update-downloaded', (info) => notify(updateReadyNotice(info.version)))
  autoUpdater.checkForUpdates().catch((e: unknown) => {
    log.error(`update check failed: ${e instanceof Error ? e.message : String(e)}`)
  })
}
