import type { IpcMainInvokeEvent, WebFrameMain } from 'electron'
import { describe, expect, it } from 'vitest'
import { IPC_EVENT, IPC_INVOKE } from '@shared/ipc'
import { EventBus } from '../kernel/events'
import type { Router } from '../kernel/router'
import { defaultSettings } from '../settings/settingsService'
import { attachIpc, forwardEvents, trustOrigins } from './ipcAdapter'

type InvokeHandler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>

/** Stands in for Electron's ipcMain: records handlers so the test can invoke them like a renderer would. */
function fakeIpcMain() {
  const handlers = new Map<string, InvokeHandler>()
  return {
    handlers,
    handle: (channel: string, fn: InvokeHandler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`)
      handlers.set(channel, fn)
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  }
}

const echoRouter: Router = { call: async (method, input) => ({ ok: true, value: { method, input } }) }
const appOrigin = 'file:///opt/Loomverse/resources/app.asar/out/renderer/index.html'

function frame(url: string, parent: WebFrameMain | null = null): WebFrameMain {
  return { url, parent } as unknown as WebFrameMain
}

function invoke(ipc: ReturnType<typeof fakeIpcMain>, senderFrame: WebFrameMain | null, ...args: unknown[]) {
  return ipc.handlers.get(IPC_INVOKE)!({ senderFrame } as IpcMainInvokeEvent, ...args)
}

describe('Electron IPC adapter', () => {
  it('passes calls from our own main frame to the router', async () => {
    const ipc = fakeIpcMain()
    attachIpc(ipc, echoRouter, trustOrigins([appOrigin]))
    expect(await invoke(ipc, frame(appOrigin), 'app_info', {})).toEqual({
      ok: true,
      value: { method: 'app_info', input: {} },
    })
  })

  it('refuses a foreign page, a subframe of our page, and a sender whose frame is gone', async () => {
    const ipc = fakeIpcMain()
    attachIpc(ipc, echoRouter, trustOrigins([appOrigin]))
    const forbidden = { ok: false, error: { code: 'forbidden', message: 'this frame may not call Loomverse' } }
    expect(await invoke(ipc, frame('https://evil.example/'), 'app_info', {})).toEqual(forbidden)
    expect(await invoke(ipc, frame(appOrigin, frame(appOrigin)), 'app_info', {})).toEqual(forbidden)
    expect(await invoke(ipc, null, 'app_info', {})).toEqual(forbidden)
  })

  it('answers bad_request when the method is not a string', async () => {
    const ipc = fakeIpcMain()
    attachIpc(ipc, echoRouter, trustOrigins([appOrigin]))
    expect(await invoke(ipc, frame(appOrigin), 42, {})).toMatchObject({ ok: false, error: { code: 'bad_request' } })
  })

  it('detaches cleanly so a new window can attach again', () => {
    const ipc = fakeIpcMain()
    const detach = attachIpc(ipc, echoRouter, trustOrigins([appOrigin]))
    detach()
    expect(ipc.handlers.size).toBe(0)
    attachIpc(ipc, echoRouter, trustOrigins([appOrigin]))
  })

  it('forwards bus events to the window until it is destroyed', () => {
    const bus = new EventBus()
    const sent: unknown[][] = []
    let onDestroyed = () => {}
    const contents = {
      send: (...args: unknown[]) => sent.push(args),
      isDestroyed: () => false,
      once: (_event: string, fn: () => void) => {
        onDestroyed = fn
        return contents
      },
    }
    forwardEvents(bus, contents as never)
    bus.emit('settings_updated', { ...defaultSettings, language: 'ja', theme: 'dark' })
    onDestroyed()
    bus.emit('settings_updated', { ...defaultSettings, language: 'en', theme: 'dark' })
    expect(sent).toEqual([[IPC_EVENT, 'settings_updated', { ...defaultSettings, language: 'ja', theme: 'dark' }]])
  })
})
