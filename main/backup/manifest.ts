import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../kernel/atomicWrite'

/** A backup folder: `manifest.json` beside `data/`, which mirrors the data folder. */
export const MANIFEST_FILE = 'manifest.json'
export const DATA_FOLDER = 'data'
const FORMAT = 'loomverse-backup'
const FORMAT_VERSION = 1

/**
 * A path inside the data folder, `/`-separated. A manifest comes from a folder anyone could
 * have edited: no absolute path, `..`, backslash or empty part may lead a restore elsewhere.
 */
const EntryPath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) =>
      !p.includes('\\') &&
      !p.includes('\0') &&
      p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    {
      message: 'not a plain path inside the data folder',
    },
  )

const FileEntry = z.object({
  path: EntryPath,
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
})

export const Manifest = z.object({
  format: z.literal(FORMAT),
  format_version: z.literal(FORMAT_VERSION),
  app_version: z.string(),
  created_at: z.string(),
  /** Each database with its schema version (`PRAGMA user_version`) at the time of the copy. */
  databases: z.array(FileEntry.extend({ user_version: z.number().int() })),
  files: z.array(FileEntry),
  /** What was left out: links and special files. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
})
export type Manifest = z.infer<typeof Manifest>
export type ManifestEntry = z.infer<typeof FileEntry>

export function newManifest(appVersion: string, createdAt: string): Manifest {
  return {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    app_version: appVersion,
    created_at: createdAt,
    databases: [],
    files: [],
    skipped: [],
  }
}

export function writeManifest(backup: string, manifest: Manifest): void {
  writeFileAtomic(join(backup, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
}

/** Reads and checks a backup's manifest; throws a sentence saying what is wrong with it. */
export async function readManifest(backup: string): Promise<Manifest> {
  const text = await readFile(join(backup, MANIFEST_FILE), 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new Error(
      e.code === 'ENOENT'
        ? 'has no manifest.json: not a complete Loomverse backup'
        : `manifest.json cannot be read (${e.code ?? e.message})`,
    )
  })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error('manifest.json is not valid JSON')
  }
  const parsed = Manifest.safeParse(json)
  if (!parsed.success)
    throw new Error(`manifest.json is not a Loomverse backup manifest (${parsed.error.issues[0]?.message})`)
  return parsed.data
}
