import type { Bridge } from '@shared/contract'

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting'

/** The bridge plus what the status bar needs to know about the link itself. */
export interface Client extends Bridge {
  readonly transport: 'electron' | 'websocket'
  state(): ConnectionState
  onState(listener: (state: ConnectionState) => void): () => void
  close(): void
}
