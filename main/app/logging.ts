import { dirname } from 'node:path'
import log from 'electron-log/main'
import { RecentErrors } from './diagnostics'

/** Each log file is cut at this size; electron-log keeps the previous one as main.old.log. */
const MAX_LOG_BYTES = 5 * 1024 * 1024

export interface AppLog {
  /** For the core and its workers: their error lines go to the file and to the recent errors. */
  error(message: string): void
  info(message: string): void
  recentErrors: RecentErrors
  /** The platform's log folder (e.g. ~/Library/Logs/Loomverse on macOS). */
  folder(): string
}

/**
 * Logs to a file in the platform's log folder with rotation: the main process (console too),
 * the preload and page (electron-log's preload and console spy) and the worker threads (their
 * log messages reach the main process through the core's `log`). Uncaught errors are logged
 * and remembered for Help → Copy diagnostics; they do not pop a dialog.
 */
export function startLogging(): AppLog {
  const recentErrors = new RecentErrors()
  log.transports.file.maxSize = MAX_LOG_BYTES
  log.initialize({ preload: true, spyRendererConsole: true })
  Object.assign(console, log.functions)
  log.errorHandler.startCatching({
    showDialog: false,
    onError: ({ error, processType }) => recentErrors.record(`${processType}: ${error.name}: ${error.message}`),
  })
  return {
    error: (message) => {
      log.error(message)
      recentErrors.record(message)
    },
    info: (message) => log.info(message),
    recentErrors,
    folder: () => dirname(log.transports.file.getFile().path),
  }
}
