import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempHome } from '../../../tests/support/tempHome'
import { SealedKeyStore, type Sealer } from './sealedKeyStore'

/** A stand-in for Electron's safeStorage: reversible, and visibly not plain text. */
function fakeSealer(backend = 'gnome_libsecret'): Sealer {
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend,
    encryptString: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
    decryptString: (sealed) => Buffer.from(sealed.map((b) => b ^ 0x5a)).toString('utf8'),
  }
}

const dir = useTempHome()

describe('sealed key store', () => {
  it('keeps keys sealed on disk (owner-only) and reads them back after a restart', () => {
    const store = new SealedKeyStore(dir(), fakeSealer(), 'linux')
    store.set('openai', 'sk-live-1234abcd')
    const file = join(dir(), 'keys.sealed')
    expect(readFileSync(file).toString('utf8')).not.toContain('sk-live')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const again = new SealedKeyStore(dir(), fakeSealer(), 'linux')
    expect(again.get('openai')).toBe('sk-live-1234abcd')
    again.delete('openai')
    expect(new SealedKeyStore(dir(), fakeSealer(), 'linux').get('openai')).toBeNull()
  })

  it("refuses Linux's basic_text backend with a clear way out", () => {
    expect(() => new SealedKeyStore(dir(), fakeSealer('basic_text'), 'linux')).toThrow(
      /no secret service .* environment variables/,
    )
  })

  it('refuses when no keychain is available at all', () => {
    expect(() => new SealedKeyStore(dir(), { ...fakeSealer(), isEncryptionAvailable: () => false })).toThrow(
      /cannot be stored safely/,
    )
  })
})
