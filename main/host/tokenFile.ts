import { chmodSync, lstatSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../kernel/atomicWrite'
import { newToken } from './auth'

// Browser mode's access token is kept in the data folder, so a restarted host takes the same
// one: an open tab reconnects by itself and a reload still works. It changes only when the
// user says so (`--token T`, `loomverse token --new`, Settings → "New browser token").

/** Where the token is kept: readable by the owner only, like host.json. */
export function tokenFile(home: string): string {
  return join(home, 'browser-token')
}

/** A token a user may choose: long enough not to be guessed, and safe in a URL and a cookie. */
export function tokenProblem(token: string): string | null {
  if (token.length < 16) return 'must be at least 16 characters'
  if (token.length > 512) return 'must be at most 512 characters'
  if (!/^[A-Za-z0-9._~-]+$/.test(token)) return 'may hold only letters, digits and . _ ~ -'
  return null
}

/**
 * The token this start of the host uses: the one given (kept from now on), a new one when
 * asked to rotate, else the kept one. A kept file that is unreadable, a link, or holds no usable
 * token is replaced by a new token.
 */
export function keptToken(home: string, options: { given?: string; rotate?: boolean } = {}): string {
  const file = tokenFile(home)
  if (options.given !== undefined) {
    writeTokenFile(file, options.given)
    return options.given
  }
  if (!options.rotate) {
    const kept = readTokenFile(file)
    if (kept) return kept
  }
  const token = newToken()
  writeTokenFile(file, token)
  return token
}

/** The kept token, or null when there is none worth using. */
export function readTokenFile(file: string): string | null {
  try {
    const info = lstatSync(file)
    if (!info.isFile()) return null // a link or anything else is never followed
    const token = readFileSync(file, 'utf8').trim()
    if (tokenProblem(token) !== null) return null
    // Readable by others (copied in from elsewhere): the owner alone may read it from now on.
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) chmodSync(file, 0o600)
    return token
  } catch {
    return null
  }
}

/**
 * Writes the token whole or not at all (kernel/atomicWrite: owner-only from its first byte,
 * flushed, renamed over the old one); a link at the file's name is replaced, not written through.
 */
export function writeTokenFile(file: string, token: string): void {
  writeFileAtomic(file, `${token}\n`)
}
