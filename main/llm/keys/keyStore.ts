import type { ProviderId } from '../types'

export interface KeyStatus {
  set: boolean
  /** The last four characters, so a user can tell keys apart; never more. */
  last4: string | null
}

/**
 * Where API keys live. They never leave the main process: the renderer sees only `KeyStatus`.
 * `persistent` tells the UI whether a key survives a restart.
 */
export interface KeyStore {
  readonly persistent: boolean
  get(provider: ProviderId): string | null
  set(provider: ProviderId, key: string): void
  delete(provider: ProviderId): void
}

export function keyStatus(key: string | null): KeyStatus {
  return { set: key !== null && key !== '', last4: key ? key.slice(-4) : null }
}

/** Browser and headless mode: keys typed into the UI last for this run only (set env vars to keep them). */
export class MemoryKeyStore implements KeyStore {
  readonly persistent = false
  private readonly keys = new Map<ProviderId, string>()

  get(provider: ProviderId): string | null {
    return this.keys.get(provider) ?? null
  }

  set(provider: ProviderId, key: string): void {
    this.keys.set(provider, key)
  }

  delete(provider: ProviderId): void {
    this.keys.delete(provider)
  }
}
