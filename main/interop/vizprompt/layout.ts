import { posix } from 'node:path'

// Where each file of a VizPrompt export lives (seed §3.1). Paths inside an export are always
// written with forward slashes so an export made on Windows reads the same everywhere.

/** The seed caps a folder at 256 files so no directory grows too large for git or a file browser. */
export const MAX_FILES_PER_FOLDER = 256

export const NODES_DIR = 'nodes'
export const FLOWS_DIR = 'flows'
export const METADATA_DIR = 'metadata'
export const CONFIG_FILE = 'config.yaml'
export const TAGS_FILE = `${METADATA_DIR}/tags.yaml`
export const INDEX_FILE = `${METADATA_DIR}/index.yaml`
export const NODE_MAP_FILE = `${METADATA_DIR}/node_map.tsv`
export const FLOW_MAP_FILE = `${METADATA_DIR}/flow_map.tsv`

/** The top-level entries an export owns; anything else in the folder (say `.git`) is left alone. */
export const MANAGED_ENTRIES = [NODES_DIR, FLOWS_DIR, METADATA_DIR, CONFIG_FILE] as const

export interface Slot {
  /** Two lowercase hex digits (more once 65,536 files are reached). */
  folder: string
  filename: string
  /** `folder/filename`, the form node_map.tsv uses. */
  relpath: string
}

/** File #n of a sequence: #0 is 00/00, #255 is 00/ff, #256 is 01/00. */
export function slot(n: number, extension: 'xml' | 'yaml'): Slot {
  const folder = hex(Math.floor(n / MAX_FILES_PER_FOLDER))
  const filename = `${hex(n % MAX_FILES_PER_FOLDER)}.${extension}`
  return { folder, filename, relpath: `${folder}/${filename}` }
}

function hex(n: number): string {
  return n.toString(16).padStart(2, '0')
}

/** A path relative to the export root, for messages: `nodes/00/01.xml`. */
export function inExport(dir: string, relpath: string): string {
  return posix.join(dir, relpath)
}

/**
 * A `folder/file.ext` relpath read from a map file must stay inside its directory: one
 * folder, one file, no `..`, no separators of either kind.
 */
export function isSafeRelpath(relpath: string, extension: 'xml' | 'yaml'): boolean {
  const parts = relpath.split('/')
  return (
    parts.length === 2 &&
    parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\\')) &&
    relpath.endsWith(`.${extension}`)
  )
}
