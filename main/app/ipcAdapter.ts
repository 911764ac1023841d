import type { IpcMain, IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron'
import type { Result } from '@shared/errors'
import { IPC_EVENT, IPC_INVOKE } from '@shared/ipc'
import type { EventBus } from '../kernel/events'
import type { Router } from '../kernel/router'

/** Decides whether a frame is our renderer: the main frame, loaded from our own origin. */
export type TrustFrame = (frame: WebFrameMain | null) => boolean

export function trustOrigins(origins: readonly string[]): TrustFrame {
  return (frame) => {
    if (!frame || frame.parent !== null) return false // subframes never speak for the app
    return origins.some((origin) => frame.url.startsWith(origin))
  }
}

/**
 * Puts the router on Electron IPC: one `handle` channel for every method, checked sender,
 * and the event bus forwarded to the window. Takes `ipcMain` as a parameter so it can be
 * tested under Node with a fake.
 */
export function attachIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  router: Router,
  isTrusted: TrustFrame,
): () => void {
  ipcMain.handle(
    IPC_INVOKE,
    async (event: IpcMainInvokeEvent, method: unknown, input: unknown): Promise<Result<unknown>> => {
      if (!isTrusted(event.senderFrame)) {
        return { ok: false, error: { code: 'forbidden', message: 'this frame may not call Loomverse' } }
      }
      if (typeof method !== 'string') {
        return { ok: false, error: { code: 'bad_request', message: 'method must be a string' } }
      }
      return router.call(method, input, { transport: 'ipc' })
    },
  )
  return () => ipcMain.removeHandler(IPC_INVOKE)
}

/** Sends every bus event to one window until it closes. */
export function forwardEvents(bus: EventBus, contents: Pick<WebContents, 'send' | 'isDestroyed' | 'once'>): () => void {
  const stop = bus.listen((event, data) => {
    if (!contents.isDestroyed()) contents.send(IPC_EVENT, event, data)
  })
  contents.once('destroyed', stop)
  return stop
}
