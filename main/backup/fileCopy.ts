import { createHash } from 'node:crypto'
import { constants } from 'node:fs'
import { mkdir, open, type FileHandle } from 'node:fs/promises'
import { dirname } from 'node:path'

export interface FileDigest {
  bytes: number
  sha256: string
}

// Never follow a link, and never wait on a FIFO a swap put where a file was: the walk skipped
// links and special files, but the name may have changed since.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/** A name that turned out to be a link or a special file when opened: left out, not copied. */
export class NotARegularFile extends Error {}

/** Opens a regular file for reading, refusing links and special files with a clear reason. */
async function openRegular(path: string): Promise<FileHandle> {
  const handle = await open(path, READ_FLAGS).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ELOOP' ? new NotARegularFile('a link (never followed)') : e
  })
  if (!(await handle.stat()).isFile()) {
    await handle.close()
    throw new NotARegularFile('not a regular file')
  }
  return handle
}

/** Bytes read per turn: each read and hash is short, so the event loop keeps answering. */
const CHUNK = 1 << 20

/**
 * Reads a regular file to its end in chunks, hashing it and handing each chunk to `sink`;
 * the digest describes exactly what was read, even if the file changed meanwhile.
 */
async function readHashed(path: string, sink: (chunk: Buffer) => Promise<void>): Promise<FileDigest> {
  const handle = await openRegular(path)
  const hash = createHash('sha256')
  const buffer = Buffer.allocUnsafe(CHUNK)
  let bytes = 0
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null)
      if (bytesRead === 0) break
      const chunk = buffer.subarray(0, bytesRead)
      hash.update(chunk)
      await sink(chunk)
      bytes += bytesRead
    }
  } finally {
    await handle.close()
  }
  return { bytes, sha256: hash.digest('hex') }
}

/** The size and sha256 of a regular file. */
export function hashFile(path: string): Promise<FileDigest> {
  return readHashed(path, async () => {})
}

/** Copies a regular file to a new file (never over one), answering the copy's size and sha256. */
export async function copyFileHashed(from: string, to: string): Promise<FileDigest> {
  await mkdir(dirname(to), { recursive: true })
  let target: FileHandle | null = null
  try {
    const digest = await readHashed(from, async (chunk) => {
      target ??= await open(to, 'wx')
      await target.write(chunk)
    })
    // An empty file still gets its copy.
    target ??= await open(to, 'wx')
    await target.sync()
    return digest
  } finally {
    await (target as FileHandle | null)?.close()
  }
}
