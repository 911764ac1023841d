import { Unzip, UnzipInflate, zipSync, type Zippable } from 'fflate'
import { ImportFileError } from '../../kernel/importFileError'
import { MAX_CARD_INFLATED_BYTES, MAX_CHARX_ENTRIES, mebibytes } from '../../kernel/importLimits'

// CHARX (Character Card V3): a zip holding the card as `card.json` at its root and the card's
// assets under `assets/{type}/…`, which the card names as `embeded://assets/…` (the spec's
// spelling). A zip comes from anyone, so reading one is bounded: every entry's name is checked
// (none may point outside the archive) and counted, and only the entries asked for are inflated,
// in small steps, all of them together no further than the card limit — a few KB of zip can
// inflate to gigabytes.

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04])
/** Compressed bytes handed to the inflater at a time: at most ~1,000 times as many come out of one step. */
const STEP = 16 * 1024

export const CHARX_CARD = 'card.json'
export const EMBEDDED = 'embeded://'

export function isZip(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 4)).equals(ZIP_SIGNATURE)
}

/** Why an entry's name cannot be taken, or null: it must stay inside the archive, as the spec's `/` paths do. */
function nameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 1_000) return 'has an empty or overlong name'
  if (/[\\\0]/.test(name) || /^[a-zA-Z]:/.test(name) || name.startsWith('/'))
    return 'has a name that is not a relative path'
  if (name.split('/').some((part) => part === '..')) return 'has a name that points outside the archive'
  return null
}

/**
 * The entries of a zip named in `wanted`, inflated; the other entries are only named and counted.
 * A file that is no zip, an entry name that climbs out, too many entries, inflating past the
 * limit, or damaged data: refused as bad_file naming the file, nothing returned.
 */
export function readZipEntries(bytes: Uint8Array, file: string, wanted: ReadonlySet<string>): Map<string, Buffer> {
  if (!isZip(bytes)) throw new ImportFileError(file, null, 'is not a zip archive')
  const found = new Map<string, Buffer>()
  const open = new Map<string, Buffer[]>()
  let entries = 0
  let inflated = 0
  const unzip = new Unzip((entry) => {
    entries++
    if (entries > MAX_CHARX_ENTRIES)
      throw new ImportFileError(file, null, `holds more than ${MAX_CHARX_ENTRIES} files, the limit for a card archive`)
    const problem = nameProblem(entry.name)
    if (problem) throw new ImportFileError(file, null, `entry ${entries} ${problem}`)
    if (!wanted.has(entry.name) || found.has(entry.name) || open.has(entry.name)) return
    if (entry.compression !== 0 && entry.compression !== 8)
      throw new ImportFileError(file, null, `${entry.name} is compressed with method ${entry.compression}, not deflate`)
    const before = inflated
    if ((entry.originalSize ?? 0) > MAX_CARD_INFLATED_BYTES - before) throw overLimit(file, entry.name, before)
    const chunks: Buffer[] = []
    open.set(entry.name, chunks)
    entry.ondata = (error, data, final) => {
      // The inflater hands a throw from here back as an error: it is passed on as it was.
      if (error instanceof ImportFileError) throw error
      if (error) throw new ImportFileError(file, null, `${entry.name} holds damaged compressed data (${error.message})`)
      inflated += data.length
      if (inflated > MAX_CARD_INFLATED_BYTES) throw overLimit(file, entry.name, before)
      chunks.push(Buffer.from(data))
      if (final) {
        open.delete(entry.name)
        found.set(entry.name, Buffer.concat(chunks))
      }
    }
    entry.start()
  })
  unzip.register(UnzipInflate)
  try {
    for (let at = 0; at < bytes.length; at += STEP) {
      const end = Math.min(at + STEP, bytes.length)
      unzip.push(bytes.subarray(at, end), end === bytes.length)
    }
  } catch (e) {
    if (e instanceof ImportFileError) throw e
    throw new ImportFileError(file, null, `is a damaged zip archive (${(e as Error).message})`)
  }
  for (const name of open.keys()) throw new ImportFileError(file, null, `${name} is cut short`)
  return found
}

function overLimit(file: string, entry: string, before: number): ImportFileError {
  return new ImportFileError(
    file,
    null,
    `${entry} inflates past ${MAX_CARD_INFLATED_BYTES} bytes (${mebibytes(MAX_CARD_INFLATED_BYTES)})` +
      `${before > 0 ? ' with the files before it' : ''}, the limit for a card`,
  )
}

/** The archive path an `embeded://` URI names, or null for any other URI (links, data URLs, ccdefault:). */
export function embeddedPath(uri: unknown): string | null {
  if (typeof uri !== 'string' || !uri.startsWith(EMBEDDED)) return null
  const path = uri.slice(EMBEDDED.length)
  return nameProblem(path) ? null : path
}

/** A CHARX file: the card as card.json, and each file at its path (pictures stored, not compressed again). */
export function writeCharx(card: unknown, files: ReadonlyArray<{ path: string; data: Uint8Array }>): Buffer {
  const zippable: Zippable = { [CHARX_CARD]: [Buffer.from(JSON.stringify(card)), { level: 6 }] }
  for (const f of files) zippable[f.path] = [f.data, { level: 0 }]
  return Buffer.from(zipSync(zippable))
}
