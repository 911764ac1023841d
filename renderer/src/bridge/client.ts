import type { Bridge } from '@shared/contract'

/** `expired`: the host answers but no longer takes this tab's token (it was renewed); a reload says what to do. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'expired'

/** The bridge plus what the status bar needs to know about the link itself. */
export interface Client extends Bridge {
  readonly transport: 'electron' | 'websocket'
  state(): ConnectionState
  onState(listener: (state: ConnectionState) => void): () => void
  close(): void
}
