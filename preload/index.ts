import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { Bridge, EventName } from '@shared/contract'
import { IPC_EVENT, IPC_INVOKE } from '@shared/ipc'

// The renderer's only door to the main process: two functions, never ipcRenderer itself.
const bridge = {
  invoke: (method, input) => ipcRenderer.invoke(IPC_INVOKE, method, input),
  on: (event, listener) => {
    const relay = (_e: IpcRendererEvent, name: EventName, data: unknown) => {
      if (name === event) (listener as (d: unknown) => void)(data)
    }
    ipcRenderer.on(IPC_EVENT, relay)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, relay)
    }
  },
} satisfies Bridge

contextBridge.exposeInMainWorld('loomverse', bridge)
