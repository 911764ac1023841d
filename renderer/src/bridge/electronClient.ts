import type { Bridge } from '@shared/contract'
import type { Client } from './client'

/** Inside Electron the preload's bridge is always connected: IPC has no link to lose. */
export function electronClient(bridge: Bridge): Client {
  return {
    transport: 'electron',
    invoke: (method, input) => bridge.invoke(method, input),
    on: (event, listener) => bridge.on(event, listener),
    state: () => 'connected',
    onState: () => () => {},
    close: () => {},
  }
}
