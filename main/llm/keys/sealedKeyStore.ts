import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { AppError } from '@shared/errors'
import type { ProviderId } from '../types'
import type { KeyStore } from './keyStore'

/** The part of Electron's `safeStorage` this store uses; tests pass a fake. */
export interface Sealer {
  isEncryptionAvailable(): boolean
  getSelectedStorageBackend?(): string
  encryptString(plain: string): Buffer
  decryptString(sealed: Buffer): string
}

/**
 * Desktop mode: keys sealed with the OS keychain (Electron `safeStorage`) in a file under the
 * app's user-data folder — never in $LOOMVERSE_HOME, so a data folder can go into git.
 * Linux's `basic_text` backend only obfuscates, so it is refused rather than trusted.
 */
export class SealedKeyStore implements KeyStore {
  readonly persistent = true
  private readonly file: string
  private keys: Partial<Record<ProviderId, string>>

  constructor(
    userDataDir: string,
    private readonly sealer: Sealer,
    platform: NodeJS.Platform = process.platform,
  ) {
    if (!sealer.isEncryptionAvailable()) {
      throw new AppError('unavailable', 'the system keychain is not available, so API keys cannot be stored safely')
    }
    if (platform === 'linux' && sealer.getSelectedStorageBackend?.() === 'basic_text') {
      throw new AppError(
        'unavailable',
        'no secret service (GNOME Keyring or KWallet) is running, so API keys cannot be stored safely; install one, or set the keys as environment variables',
      )
    }
    this.file = join(userDataDir, 'keys.sealed')
    this.keys = existsSync(this.file)
      ? (JSON.parse(sealer.decryptString(readFileSync(this.file))) as Partial<Record<ProviderId, string>>)
      : {}
  }

  get(provider: ProviderId): string | null {
    return this.keys[provider] ?? null
  }

  set(provider: ProviderId, key: string): void {
    this.keys = { ...this.keys, [provider]: key }
    this.save()
  }

  delete(provider: ProviderId): void {
    const { [provider]: _gone, ...rest } = this.keys
    this.keys = rest
    this.save()
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true })
    const temp = `${this.file}.tmp`
    writeFileSync(temp, this.sealer.encryptString(JSON.stringify(this.keys)), { mode: 0o600 })
    chmodSync(temp, 0o600)
    renameSync(temp, this.file) // whole file or nothing: a crash never leaves half a key file
  }
}
