import { app, session, shell, type WebContents } from 'electron'
import { opensExternally } from './externalLinks'

/**
 * Hardening that holds for every window: no navigation away from the app, no popups
 * (web and mail links open in the user's browser or mail app instead), no <webview>, and every permission
 * request (camera, notifications, geolocation…) denied unless a feature asks for it here.
 */
export function hardenApp(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.on('will-redirect', (event) => event.preventDefault())
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      if (opensExternally(url)) void shell.openExternal(url)
      return { action: 'deny' }
    })
  })
}
