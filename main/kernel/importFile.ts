import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs'
import { lstat, mkdir, open, realpath, type FileHandle } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ImportFileError, lineAtOffset } from './importFileError'
import { isInside } from './isInside'
import { mebibytes } from './importLimits'

// Reading a file a user asked to import, without trusting what is at the path: a symbolic
// link is never followed, only a regular file is opened (a FIFO or a device would block
// Node's file threads or never end), its size is checked before a byte is read, and its
// text must be UTF-8 without NUL characters — a replacement character put in silently would
// change the user's text without a word.

/** O_NOFOLLOW: the last step of the path is not followed either, should it become a link after the lstat. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

export interface ImportFileOptions {
  /** How the file is named in errors (relative to an export folder, or as the user gave it). */
  name: string
  maxBytes: number
}

/** `path` as it is on disk, checked: not a link, a regular file, within the size limit. */
export async function openImportFile(path: string, options: ImportFileOptions): Promise<FileHandle> {
  refuseLink(await lstat(path), options.name)
  const handle = await open(path, OPEN_FLAGS).catch((e: unknown) => {
    throw openError(e, options.name)
  })
  try {
    checkOpened(await handle.stat(), options)
    return handle
  } catch (e) {
    await handle.close()
    throw e
  }
}

/** The whole file as checked text (a byte-order mark dropped). */
export async function readImportFile(path: string, options: ImportFileOptions): Promise<string> {
  const handle = await openImportFile(path, options)
  try {
    return decodeImportText(await handle.readFile(), options.name)
  } finally {
    await handle.close()
  }
}

/** The same, synchronously: for many small files, where a promise per file costs more than the read. */
export function readImportFileSync(path: string, options: ImportFileOptions): string {
  refuseLink(lstatSync(path), options.name)
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (e) {
    throw openError(e, options.name)
  }
  try {
    const { size } = checkOpened(fstatSync(fd), options)
    const bytes = Buffer.allocUnsafe(size)
    let read = 0
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, null)
      if (n === 0) break
      read += n
    }
    return decodeImportText(bytes.subarray(0, read), options.name)
  } finally {
    closeSync(fd)
  }
}

/** Refuses a symbolic link (or anything but a folder) where a folder of an import must be. */
export function checkImportFolder(info: Stats, name: string): void {
  refuseLink(info, name)
  if (!info.isDirectory()) throw new ImportFileError(name, null, `is ${kindOf(info)}, not a folder`)
}

/**
 * Bytes as UTF-8 text, refusing invalid sequences and NUL with their line. A byte-order
 * mark at the start is dropped.
 */
export function decodeImportText(bytes: Uint8Array, name: string): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new ImportFileError(name, firstInvalidLine(bytes), 'is not valid UTF-8 text')
  }
  const nul = text.indexOf('\0')
  if (nul !== -1) throw new ImportFileError(name, lineAtOffset(text, nul), 'holds a NUL character')
  return text
}

/**
 * The file's lines, read as a stream: each checked as decodeImportText checks a whole
 * file, numbered from 1, without its line end (LF or CRLF). A line break byte never occurs
 * inside a multi-byte UTF-8 sequence, so splitting the bytes first is exact. (readline would
 * decode with replacement characters, which is what must not happen here.)
 */
export async function* importFileLines(
  handle: FileHandle,
  name: string,
): AsyncGenerator<{ line: number; text: string }> {
  // ignoreBOM: every line is decoded on its own; only the file's first may lose a mark.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  let line = 0
  let rest: Buffer = Buffer.alloc(0)
  const emit = (bytes: Buffer): { line: number; text: string } => {
    line++
    let text: string
    try {
      text = decoder.decode(bytes)
    } catch {
      throw new ImportFileError(name, line, 'is not valid UTF-8 text')
    }
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    if (text.includes('\0')) throw new ImportFileError(name, line, 'holds a NUL character')
    return { line, text: text.endsWith('\r') ? text.slice(0, -1) : text }
  }
  for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 256 * 1024 })) {
    let bytes = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer)
    for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10)) {
      yield emit(bytes.subarray(0, end))
      bytes = bytes.subarray(end + 1)
    }
    rest = Buffer.from(bytes)
  }
  if (rest.length > 0) yield emit(rest)
}

function refuseLink(info: Stats, name: string): void {
  if (info.isSymbolicLink()) throw new ImportFileError(name, null, 'is a symbolic link; an import never follows one')
}

function checkOpened(info: Stats, options: ImportFileOptions): Stats {
  if (!info.isFile()) throw new ImportFileError(options.name, null, `is ${kindOf(info)}, not a regular file`)
  if (info.size > options.maxBytes) {
    throw new ImportFileError(
      options.name,
      null,
      `is ${info.size} bytes, over the limit of ${options.maxBytes} bytes (${mebibytes(options.maxBytes)})`,
    )
  }
  return info
}

function openError(e: unknown, name: string): Error {
  const code = (e as NodeJS.ErrnoException).code
  // ELOOP: O_NOFOLLOW met a link that appeared after the lstat.
  if (code === 'ELOOP') return new ImportFileError(name, null, 'is a symbolic link; an import never follows one')
  if (code === 'ENOENT') return e as Error
  return new ImportFileError(name, null, `cannot be opened (${code ?? 'unknown error'})`, 'forbidden')
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder'
  if (info.isFIFO()) return 'a FIFO (named pipe)'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice()) return 'a character device'
  if (info.isBlockDevice()) return 'a block device'
  if (info.isSymbolicLink()) return 'a symbolic link'
  return 'a regular file'
}

/** The first line (1-based) whose bytes are not valid UTF-8. */
export function firstInvalidLine(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let line = 1
  let start = 0
  for (;;) {
    const end = bytes.indexOf(10, start)
    try {
      decoder.decode(bytes.subarray(start, end === -1 ? bytes.length : end))
    } catch {
      return line
    }
    if (end === -1) return line
    start = end + 1
    line++
  }
}

export interface ChosenFile {
  path: string
  /** As the caller named it, for messages. */
  name: string
}

/**
 * What an import may read. A window or a script on the WebSocket names a file or folder under
 * the home's imports/ folder (`importsDir`, created when missing; a relative name is taken from
 * there), with no link on the way: it cannot make the process read an arbitrary path. The
 * command line (`importsDir` null), typed by the user in their own shell, may name any path —
 * but every import still reads only regular files, never through a link.
 */
export async function chooseImportPath(requested: string, importsDir: string | null): Promise<ChosenFile> {
  if (importsDir === null) return { path: resolve(requested), name: requested }
  await mkdir(importsDir, { recursive: true, mode: 0o700 })
  const outside = () =>
    new ImportFileError(requested, null, `is not in the imports folder; copy it into ${importsDir} first`, 'forbidden')
  if ((await lstat(importsDir)).isSymbolicLink()) throw outside()
  const path = resolve(importsDir, requested)
  if (path === resolve(importsDir) || !isInside(path, resolve(importsDir))) throw outside()
  // A link anywhere on the way (a folder inside imports/ pointing out) shows as a different real path.
  const real = await realpath(path).catch((e: unknown) => {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new ImportFileError(requested, null, 'no such file or folder', 'not_found')
    if (code === 'ENAMETOOLONG')
      throw new ImportFileError(requested, null, 'is longer than this system allows a path to be', 'bad_input')
    throw e
  })
  if ((await lstat(path)).isSymbolicLink()) {
    throw new ImportFileError(requested, null, 'is a symbolic link; an import never follows one')
  }
  const folder = await realpath(importsDir)
  if (real === folder || !isInside(real, folder)) throw outside()
  return { path, name: requested }
}
