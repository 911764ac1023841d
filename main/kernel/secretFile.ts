import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { AppError } from '@shared/errors'
import { writeFileAtomic } from './atomicWrite'

/** The part of Electron's `safeStorage` the sealed files use; tests pass a fake. */
export interface Sealer {
  isEncryptionAvailable(): boolean
  getSelectedStorageBackend?(): string
  encryptString(plain: string): Buffer
  decryptString(sealed: Buffer): string
}

/** A file of named secrets, read and written whole (a crash leaves the old file or the new one). */
export interface SecretFile {
  /** Sealed by the OS keychain; false: plain text, readable by the owner only. */
  readonly encrypted: boolean
  read(): Record<string, string>
  write(secrets: Record<string, string>): void
}

/**
 * Secrets sealed with the OS keychain (Electron `safeStorage`). Linux's `basic_text` backend
 * only obfuscates, so it is refused (the error says why) rather than trusted.
 */
export function sealedSecretFile(
  path: string,
  sealer: Sealer,
  platform: NodeJS.Platform = process.platform,
): SecretFile {
  if (!sealer.isEncryptionAvailable()) {
    throw new AppError('unavailable', 'the system keychain is not available, so secrets cannot be stored safely')
  }
  if (platform === 'linux' && sealer.getSelectedStorageBackend?.() === 'basic_text') {
    throw new AppError(
      'unavailable',
      'no secret service (GNOME Keyring or KWallet) is running, so secrets cannot be stored safely; install one, or set them as environment variables',
    )
  }
  return {
    encrypted: true,
    read: () =>
      existsSync(path) ? (JSON.parse(sealer.decryptString(readFileSync(path))) as Record<string, string>) : {},
    write: (secrets) => {
      mkdirSync(dirname(path), { recursive: true })
      writeFileAtomic(path, sealer.encryptString(JSON.stringify(secrets)))
    },
  }
}

/**
 * Where there is no keychain (browser mode, no Electron): secrets in plain JSON that only the
 * owner may read. Honest about it: `encrypted` is false, and the UI says so.
 */
export function plainSecretFile(path: string): SecretFile {
  return {
    encrypted: false,
    read: () => {
      const info = lstatSync(path, { throwIfNoEntry: false })
      if (!info) return {}
      if (!info.isFile()) throw new AppError('conflict', `${path} is not a regular file; it is not read`)
      // Copied in readable by others: the owner alone may read it from now on.
      if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) chmodSync(path, 0o600)
      return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>
    },
    write: (secrets) => writeFileAtomic(path, JSON.stringify(secrets, null, 2) + '\n'), // owner-only (0600)
  }
}
