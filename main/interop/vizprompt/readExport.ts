import type { Dirent } from 'node:fs'
import { lstat, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Node } from '@shared/contract'
import { AppError } from '@shared/errors'
import type { ImportedFlow } from '../../graph/graphService'
import { checkImportFolder, readImportFile, readImportFileSync } from '../../kernel/importFile'
import { TimeSlices } from '../../kernel/timeSlices'
import { parseFlowYaml } from './flowYaml'
import { MAX_CONFIG_FILE_BYTES, MAX_LISTING_FILE_BYTES, MAX_NODE_FILE_BYTES } from './importLimits'
import {
  CONFIG_FILE,
  FLOWS_DIR,
  FLOW_MAP_FILE,
  INDEX_FILE,
  METADATA_DIR,
  NODES_DIR,
  NODE_MAP_FILE,
  TAGS_FILE,
  inExport,
  isSafeRelpath,
} from './layout'
import { FLOW_MAP_HEADER, NODE_MAP_HEADER } from './metadataFiles'
import { parseNodeXml } from './nodeXml'
import { byCodeUnits } from './order'
import { parseTsv } from './tsv'
import { VizpromptError } from './vizpromptError'
import { parseYaml } from './yamlFile'

// Reads a whole export into memory and checks it, touching no database: an import either
// has everything it needs, valid, or stops here with the file and line of the first problem.
// Nothing under the export folder is reached through a symbolic link: the folders are
// checked with lstat and every file is opened without following one (importFile.ts).

export interface NodeFile {
  /** Relative to nodes/, as node_map.tsv writes it. */
  relpath: string
  node: Node
}

export interface FlowFile {
  /** Relative to the export folder. */
  file: string
  flow: ImportedFlow
}

export interface ExportContents {
  /** In directory order (sorted relpaths); one id may appear in several files. */
  nodes: NodeFile[]
  flows: FlowFile[]
}

/** The major version of the format this code reads and writes (config.yaml `version`). */
const FORMAT_MAJOR = '1'

export async function readExport(dir: string): Promise<ExportContents> {
  const info = await stat(dir).catch(() => null)
  if (!info?.isDirectory()) throw new AppError('not_found', `${dir}: no such folder`)
  await checkFolders(dir)
  await checkConfig(dir)
  const nodes = await readNodes(dir)
  const flows = await readFlows(dir, new Set(nodes.map((n) => n.node.id)))
  // Derived files are rebuilt on export, but a broken one still means a damaged export.
  for (const file of [TAGS_FILE, INDEX_FILE]) {
    const text = await readText(dir, file, { optional: true })
    if (text !== null) parseYaml(text, file)
  }
  return { nodes, flows }
}

/** The export's own folders, where they exist, must be folders and not links to elsewhere. */
async function checkFolders(dir: string): Promise<void> {
  for (const folder of [NODES_DIR, FLOWS_DIR, METADATA_DIR]) {
    const info = await lstat(join(dir, folder)).catch(absent)
    if (info) checkImportFolder(info, folder)
  }
}

async function checkConfig(dir: string): Promise<void> {
  const config = parseYaml((await readText(dir, CONFIG_FILE))!, CONFIG_FILE)
  const version = String((config.value as { version?: unknown } | null)?.version ?? '')
  if (version.split('.')[0] !== FORMAT_MAJOR) {
    throw new VizpromptError(
      CONFIG_FILE,
      config.lineOf(['version']),
      `format version "${version}" is not one this Loomverse reads (${FORMAT_MAJOR}.x)`,
    )
  }
}

async function readNodes(dir: string): Promise<NodeFile[]> {
  const relpaths = await listFiles(dir, {
    folder: NODES_DIR,
    map: NODE_MAP_FILE,
    header: NODE_MAP_HEADER,
    extension: 'xml',
    relpathOf: (c) => c[0]!,
  })
  const nodes = await readAll(dir, NODES_DIR, relpaths, (text, file) => parseNodeXml(text, file))
  return relpaths.map((relpath, i) => ({ relpath, node: nodes[i]! }))
}

async function readFlows(dir: string, nodeIds: ReadonlySet<string>): Promise<FlowFile[]> {
  const relpaths = await listFiles(dir, {
    folder: FLOWS_DIR,
    map: FLOW_MAP_FILE,
    header: FLOW_MAP_HEADER,
    extension: 'yaml',
    relpathOf: (c) => `${c[1]}/${c[2]}`,
  })
  const byId = new Map<string, string>()
  const flows = await readAll(dir, FLOWS_DIR, relpaths, (text, file) => parseFlowYaml(text, file, nodeIds))
  const out: FlowFile[] = []
  for (const [i, relpath] of relpaths.entries()) {
    const file = inExport(FLOWS_DIR, relpath)
    const flow = flows[i]!
    const other = byId.get(flow.id)
    if (other) throw new VizpromptError(file, null, `flow ${flow.id} is also defined by ${other}`)
    byId.set(flow.id, file)
    out.push({ file, flow })
  }
  return out
}

interface Listing {
  folder: string
  map: string
  header: readonly string[]
  extension: 'xml' | 'yaml'
  relpathOf: (cells: string[]) => string
}

/**
 * The files of a folder in directory order: everything its map names (each must exist)
 * plus any file found beside them — a node copied by hand is exactly the case the seed's
 * UUID collision rules are for.
 */
async function listFiles(dir: string, spec: Listing): Promise<string[]> {
  const rows = parseTsv((await readText(dir, spec.map))!, spec.header, spec.map)
  const found = new Set(await scan(dir, spec.folder, spec.extension))
  for (const row of rows) {
    const relpath = spec.relpathOf(row.cells)
    if (!isSafeRelpath(relpath, spec.extension)) {
      throw new VizpromptError(spec.map, row.line, `"${relpath}" is not a folder/file.${spec.extension} path`)
    }
    if (!found.has(relpath)) {
      throw new VizpromptError(spec.map, row.line, `${inExport(spec.folder, relpath)} is listed but missing`)
    }
  }
  return [...found].sort(byCodeUnits)
}

/**
 * `folder/file.ext` for every file one level down. A link among the folders is refused
 * rather than skipped (the nodes behind it would silently go missing); one among the files
 * is listed, and refused when it is read, like a FIFO or anything else that is not a file.
 */
async function scan(dir: string, top: string, extension: string): Promise<string[]> {
  const out: string[] = []
  for (const folder of await entries(join(dir, top))) {
    if (folder.isSymbolicLink()) checkImportFolder(await lstat(join(dir, top, folder.name)), inExport(top, folder.name))
    if (!folder.isDirectory()) continue
    for (const file of await entries(join(dir, top, folder.name))) {
      if (!file.isDirectory() && file.name.endsWith(`.${extension}`)) out.push(`${folder.name}/${file.name}`)
    }
  }
  return out
}

/** A folder's entries as they are (links not followed); none when it does not exist. */
async function entries(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch((e: unknown) => absent(e) ?? [])
}

function absent(e: unknown): null {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null
  throw e
}

/** Files read between two turns of the event loop. */
/**
 * The files, read and parsed, in order. Small files are read synchronously: a promise per file
 * costs more than the read itself. The event loop is handed back every slice of time, between
 * files, parsing included (parsing 40,000 node files at once held it for seconds).
 */
async function readAll<T>(
  dir: string,
  folder: string,
  relpaths: readonly string[],
  parse: (text: string, file: string) => T,
): Promise<T[]> {
  const out: T[] = []
  const slices = new TimeSlices()
  for (const relpath of relpaths) {
    if (slices.due()) await slices.next()
    const file = inExport(folder, relpath)
    out.push(parse(readTextSync(dir, file, folder === NODES_DIR ? MAX_NODE_FILE_BYTES : MAX_LISTING_FILE_BYTES), file))
  }
  return out
}

/** A file of the export as checked text (without a byte-order mark); null if optional and absent. */
async function readText(dir: string, file: string, options: { optional?: boolean } = {}): Promise<string | null> {
  const maxBytes = file === CONFIG_FILE ? MAX_CONFIG_FILE_BYTES : MAX_LISTING_FILE_BYTES
  try {
    return await readImportFile(join(dir, file), { name: file, maxBytes })
  } catch (e) {
    return missing(e, file, options)
  }
}

function readTextSync(dir: string, file: string, maxBytes: number): string {
  try {
    return readImportFileSync(join(dir, file), { name: file, maxBytes })
  } catch (e) {
    return missing(e, file, {})!
  }
}

function missing(e: unknown, file: string, options: { optional?: boolean }): null {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  if (options.optional) return null
  throw new VizpromptError(file, null, 'is missing; is this a VizPrompt export folder?')
}
