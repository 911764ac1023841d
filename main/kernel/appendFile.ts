import { closeSync, constants, fstatSync, lstatSync, openSync, writeSync } from 'node:fs'
import { ImportFileError } from './importFileError'

/**
 * Opened for an append: created when missing, never through a link (O_NOFOLLOW), and without
 * waiting (O_NONBLOCK): a FIFO with no reader fails at once instead of blocking the event
 * loop until someone opens it, and one with a reader is refused by the fstat below before a
 * byte goes in.
 */
const APPEND_FLAGS =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0)

/**
 * Adds text to the end of a regular file (a log), creating it if needed. Anything else at the
 * path — a FIFO, a device, a socket, a folder, a link — is refused with `bad_file` naming the
 * file (`name`, as the user knows it) and nothing is written. The write is one small, bounded
 * call on a regular file, so it stays synchronous.
 */
export function appendRegularFile(path: string, text: string, name: string): void {
  const there = lstatSync(path, { throwIfNoEntry: false })
  if (there && !there.isFile()) throw notRegular(name)
  let fd: number
  try {
    fd = openSync(path, APPEND_FLAGS, 0o600)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    // ELOOP: a link appeared after the lstat; ENXIO: a FIFO with no reader did.
    if (code === 'ELOOP' || code === 'ENXIO') throw notRegular(name)
    throw e
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(name)
    const bytes = Buffer.from(text, 'utf8')
    let off = 0
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off)
  } finally {
    closeSync(fd)
  }
}

function notRegular(name: string): ImportFileError {
  return new ImportFileError(
    name,
    null,
    'is not a regular file (a link, FIFO, device or folder): nothing was written to it',
    'bad_file',
  )
}
