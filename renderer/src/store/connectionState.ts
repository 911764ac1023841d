import type { AppInfo } from '@shared/contract'
import type { ConnectionState } from '../bridge'

// What the connection slice holds and offers (its implementation: connectionSlice.ts). Apart from it, so
// that the store's whole type (app.ts) names every slice without importing their code.

export interface ConnectionSlice {
  connection: ConnectionState
  info: AppInfo | null
  loadInfo(): Promise<void>
  /** Browser mode: a new access token; this tab reopens with it (the host disconnects the others). */
  renewBrowserToken(): Promise<void>
}
