import { join } from 'node:path'
import { sealedSecretFile, type SecretFile, type Sealer } from '../../kernel/secretFile'
import type { ProviderId } from '../types'
import type { KeyStore } from './keyStore'

export type { Sealer }

/**
 * Desktop mode: keys sealed with the OS keychain (Electron `safeStorage`) in a file under the
 * app's user-data folder — never in $LOOMVERSE_HOME, so a data folder can go into git.
 * Linux's `basic_text` backend only obfuscates, so it is refused rather than trusted.
 */
export class SealedKeyStore implements KeyStore {
  readonly persistent = true
  private readonly file: SecretFile
  private keys: Partial<Record<ProviderId, string>>

  constructor(userDataDir: string, sealer: Sealer, platform: NodeJS.Platform = process.platform) {
    this.file = sealedSecretFile(join(userDataDir, 'keys.sealed'), sealer, platform)
    this.keys = this.file.read()
  }

  get(provider: ProviderId): string | null {
    return this.keys[provider] ?? null
  }

  set(provider: ProviderId, key: string): void {
    this.keys = { ...this.keys, [provider]: key }
    this.file.write(this.keys as Record<string, string>)
  }

  delete(provider: ProviderId): void {
    const { [provider]: _gone, ...rest } = this.keys
    this.keys = rest
    this.file.write(this.keys as Record<string, string>)
  }
}
