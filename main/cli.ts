import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DEFAULT_FLOW_NAME, type FlowSummary, type In, type Method, type Out, type Persona } from '@shared/contract'
import { AppError } from '@shared/errors'
import { version } from '../package.json'
import { startCore, type Core } from './core'
import { resolveHome } from './kernel/home'
import { restoreBackup } from './backup/restoreBackup'
import { serve } from './host/serve'
import { tokenCommand } from './host/tokenCommand'
import { tokenProblem } from './host/tokenFile'
import type { WorkerEntry } from './kernel/jobs/workerThread'
import { builtWorkers } from './workers/builtWorkers'
import { matchPersona } from './persona/personaRef'
import { runMcpServer } from './host/mcp/mcpCommand'
import type { VizpromptImportSummary as ImportSummary } from '@shared/contract'

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
  env: NodeJS.ProcessEnv
  /** Resolves when the user asks the process to stop (Ctrl+C, SIGTERM). */
  untilStopped: () => Promise<void>
  /** The job worker to run; by default the built one beside this file. Tests pass the source. */
  jobWorker?: WorkerEntry | null
  /** The memory worker to run, likewise. */
  memoryWorker?: WorkerEntry | null
}

const help = `loomverse ${version} — a studio for long conversations with AI personas

Usage:
  loomverse serve [--port N] [--home DIR] [--token T]   run browser mode on 127.0.0.1
                  [--no-mcp-commands]                   never run MCP servers' programs (only url servers)
                  [--mcp-allow-writes]                  let every API token's agent notify personas over
                                                        /api/mcp (else only tokens made to notify)
  loomverse token [--new]                               print browser mode's address; --new makes a new
                                                        access token (a running host takes it at once)
  loomverse create-node (--prompt TEXT | --prompt-file F) (--response TEXT | --response-file F)
                        [--flow NAME] [--parent ID]... [--tags "a,b"]
                                                        add a prompt/response node; prints its id
  loomverse search [--tags "a,b"] [--keywords "x,y"] [--flow NAME]
                                                        find nodes; prints id, flow and excerpt per line
  loomverse export --format vizprompt --out DIR [--flow NAME]
                                                        write the graph as VizPrompt text files
  loomverse export --format markdown --flow NAME [--node ID]
                                                        write a conversation's path (root → node; by
                                                        default where a story stands, else the newest
                                                        node) as Markdown under exports/; prints the file
  loomverse import --format vizprompt DIR               read a VizPrompt folder into the graph
  loomverse import --format chatgpt FILE                ChatGPT's conversations.json: a flow per conversation
  loomverse import --format card FILE                   a SillyTavern character card (PNG or JSON) as a persona
  loomverse build [--flow NAME]                         summarise and tag every node edited since its
                                                        last summary, with the lightweight model
  loomverse memory import --persona NAME_OR_ID FILE [--no-llm]
                                                        import a chat log into a persona's memory, then
                                                        run its jobs: JSONL ({id, speaker, text, time}
                                                        per line), LoCoMo JSON (.json) or a transcript
                                                        ("speaker: text" per line, "[time]" lines);
                                                        exits 1 when any line could not be read
  loomverse story init NAME [--template blank|fantasy|school] [--language ja|en]
                                                        create a story project under scenarios/NAME
  loomverse backup [--to FOLDER]                        back up the whole data folder while it is in use
                                                        into a new, verified folder under FOLDER (default:
                                                        the backup folder set in Settings); exits 1 when
                                                        the backup failed
  loomverse restore BACKUP_FOLDER --to NEW_HOME         verify a backup and restore it into a new data
                                                        folder; exits 1 when any file failed verification
  loomverse mcp [--persona NAME_OR_ID] [--allow-writes]
                                                        offer a persona's memory and the conversations to
                                                        other agents (Claude Desktop, Cursor…) as an MCP
                                                        server on stdin/stdout; read-only unless
                                                        --allow-writes (notify); every call is logged in
                                                        logs/mcp-server.log; serve offers the same over
                                                        Streamable HTTP at /api/mcp (API tokens)
  loomverse --version
  loomverse --help

Options:
  --home DIR    data folder (default: $LOOMVERSE_HOME, else ~/.loomverse)
  --port N      port to listen on; 0 picks a free one (default: 8080, the VizPrompt seed's)
  --token T     access token for browser mode, kept in the data folder from then on (default:
                $LOOMVERSE_TOKEN, else the kept one, else a new random one, kept)
  --flow NAME   a flow's name or id; create-node creates it when missing (default: main)
  --parent ID   the new node's parent; repeat it to merge branches (default: a new root)
  --tags, --keywords
                comma-separated; search needs at least one of them and finds nodes with all
  --format F    vizprompt (the default); export also markdown; import also chatgpt, card

The database commands work while "loomverse serve" runs on the same data folder; open
windows see the change when they reload.
`

const options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  home: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  prompt: { type: 'string' },
  response: { type: 'string' },
  'prompt-file': { type: 'string' },
  'response-file': { type: 'string' },
  flow: { type: 'string' },
  parent: { type: 'string', multiple: true },
  tags: { type: 'string' },
  keywords: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  persona: { type: 'string' },
  'no-llm': { type: 'boolean' },
  node: { type: 'string' },
  template: { type: 'string' },
  language: { type: 'string' },
  to: { type: 'string' },
  new: { type: 'boolean' },
  'allow-writes': { type: 'boolean' },
  'no-mcp-commands': { type: 'boolean' },
  'mcp-allow-writes': { type: 'boolean' },
} as const

function parse(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options })
}
type Values = ReturnType<typeof parse>['values']

/** The command line was wrong: exit code 2. Anything else that goes wrong is 1. */
class UsageError extends Error {}

interface Command {
  /** What it accepts besides --home and --help. */
  options: ReadonlyArray<keyof typeof options>
  /** Its positional arguments, by name, all required. */
  positionals: readonly string[]
  run(values: Values, positionals: string[], io: CliIo): Promise<number>
}

const commands: Record<string, Command> = {
  serve: { options: ['port', 'token', 'no-mcp-commands', 'mcp-allow-writes'], positionals: [], run: serveCommand },
  token: { options: ['new'], positionals: [], run: browserTokenCommand },
  'create-node': {
    options: ['prompt', 'response', 'prompt-file', 'response-file', 'flow', 'parent', 'tags'],
    positionals: [],
    run: createNodeCommand,
  },
  search: { options: ['tags', 'keywords', 'flow'], positionals: [], run: searchCommand },
  export: { options: ['format', 'out', 'flow', 'node'], positionals: [], run: exportCommand },
  import: { options: ['format'], positionals: ['DIR'], run: importCommand },
  build: { options: ['flow'], positionals: [], run: buildCommand },
  memory: { options: ['persona', 'no-llm'], positionals: ['import', 'FILE'], run: memoryCommand },
  story: { options: ['template', 'language'], positionals: ['init', 'NAME'], run: storyCommand },
  backup: { options: ['to'], positionals: [], run: backupCommand },
  restore: { options: ['to'], positionals: ['BACKUP_FOLDER'], run: restoreCommand },
  mcp: { options: ['persona', 'allow-writes'], positionals: [], run: mcpCommand },
}

/** The port `serve` takes when none is given and it is free (VizPrompt seed §12.1). */
const DEFAULT_PORT = 8080
/** Import results can list every node; past this many the rest are counted, not listed. */
const SKIPPED_SHOWN = 20

/** Runs one command and returns the process exit code. 2 means the command line was wrong. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parse(argv)
  } catch (e) {
    io.err(`loomverse: ${(e as Error).message}\nRun "loomverse --help" for usage.`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.version) {
    io.out(version)
    return 0
  }
  const [name, ...rest] = positionals
  if (values.help || name === undefined || name === 'help') {
    io.out(help)
    return 0
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined
  if (!command) {
    io.err(`loomverse: unknown command "${name}". Run "loomverse --help" for usage.`)
    return 2
  }
  try {
    checkUsage(name, command, values, rest)
    return await command.run(values, rest, io)
  } catch (e) {
    io.err(`loomverse ${name}: ${(e as Error).message}`)
    return e instanceof UsageError ? 2 : 1
  }
}

function checkUsage(name: string, command: Command, values: Values, rest: string[]): void {
  const expected = command.positionals
  if (rest.length > expected.length) throw new UsageError(`unexpected argument "${rest[expected.length]}"`)
  if (rest.length < expected.length) throw new UsageError(`missing ${expected[rest.length]}`)
  const allowed = new Set<string>(['home', 'help', 'version', ...command.options])
  const stray = Object.keys(values).find((k) => !allowed.has(k))
  if (stray) throw new UsageError(`--${stray} does not apply to ${name}`)
}

// ---- serve

async function serveCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  const port = parsePort(values.port ?? String(DEFAULT_PORT))
  if (port === null) throw new UsageError(`--port must be an integer from 0 to 65535, got "${values.port}"`)
  const token = values.token ?? (io.env.LOOMVERSE_TOKEN || undefined)
  const problem = token === undefined ? null : tokenProblem(token)
  if (problem) throw new UsageError(`--token ${problem}`)
  const home = resolveHome(values.home, io.env)
  const serving = await serve({
    home,
    port,
    token,
    staticDir: rendererDir(),
    ...workersFor(io),
    log: io.err,
    noMcpCommands: values['no-mcp-commands'] === true,
    mcpAllowWrites: values['mcp-allow-writes'] === true,
  }).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EADDRINUSE') throw e
    throw new Error(
      `port ${port} is in use (by another program or another Loomverse); ` +
        'give another with --port N, or --port 0 for any free one',
    )
  })
  io.out(`Loomverse is running at ${serving.host.url}`)
  io.out(`Data: ${home}  (press Ctrl+C to stop)`)
  await io.untilStopped()
  await serving.stop()
  return 0
}

async function browserTokenCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  for (const line of await tokenCommand(resolveHome(values.home, io.env), { rotate: values.new === true })) io.out(line)
  return 0
}

function parsePort(text: string): number | null {
  if (!/^\d+$/.test(text)) return null
  const n = Number(text)
  return n <= 65535 ? n : null
}

/** The workers the test gave, else the built ones beside this file (none from source: jobs wait in their queues). */
function workersFor(io: CliIo): { jobWorker: WorkerEntry | null; memoryWorker: WorkerEntry | null } {
  const built = builtWorkers(dirname(fileURLToPath(import.meta.url)))
  return { jobWorker: io.jobWorker ?? built.job, memoryWorker: io.memoryWorker ?? built.memory }
}

/** The built renderer next to this file in `out/`; absent when running from source without a build. */
function rendererDir(): string | null {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
  return existsSync(dir) ? dir : null
}

// ---- graph commands: they open the database directly (SQLite WAL lets a running serve share it)

async function createNodeCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  const prompt = await textOrFile(values.prompt, values['prompt-file'], 'prompt')
  const response = await textOrFile(values.response, values['response-file'], 'response')
  const flowName = values.flow ?? DEFAULT_FLOW_NAME
  return withCore(values, io, async (core) => {
    const flow = core.graph.findFlow(flowName) ?? (await call(core, 'create_flow', { name: flowName }))
    const node = await call(core, 'create_node', {
      flow_id: flow.id,
      prompt,
      response,
      parent_ids: values.parent ?? [],
      tags: list(values.tags),
    })
    io.out(`Created node: ${node.id}`)
    return 0
  })
}

async function searchCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  const tags = list(values.tags)
  const keywords = list(values.keywords)
  if (tags.length === 0 && keywords.length === 0) throw new UsageError('give --tags, --keywords or both')
  return withCore(values, io, async (core) => {
    const flowId = values.flow === undefined ? undefined : requireFlow(core, values.flow).id
    const { nodes } = await call(core, 'search_nodes', {
      ...(tags.length > 0 && { tags }),
      ...(keywords.length > 0 && { keywords }),
      flow_id: flowId,
    })
    const names = new Map(core.graph.listFlows().map((f) => [f.id, f.name]))
    for (const hit of nodes) {
      const flows = hit.flow_ids.map((id) => names.get(id) ?? id).join(',')
      io.out([hit.id, flows, hit.excerpt.replace(/\s+/g, ' ').trim()].join('\t'))
    }
    if (nodes.length === 0) io.err('No matching nodes.')
    return 0
  })
}

async function exportCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  if (values.format === 'markdown') return markdownExport(values, io)
  checkFormat(values.format)
  if (values.node !== undefined) throw new UsageError('--node applies to --format markdown only')
  const outDir = resolve(required(values.out, '--out DIR'))
  return withCore(values, io, async (core) => {
    const flowId = values.flow === undefined ? undefined : requireFlow(core, values.flow).id
    const result = await call(core, 'vizprompt_export', { out: outDir, ...(flowId ? { flow_id: flowId } : {}) })
    io.out(`Exported ${result.nodes} nodes in ${result.flows} flows to ${result.out_dir}`)
    return 0
  })
}

async function markdownExport(values: Values, io: CliIo): Promise<number> {
  if (values.out !== undefined) throw new UsageError('--format markdown writes under exports/; --out does not apply')
  const flowRef = required(values.flow, '--flow NAME')
  return withCore(values, io, async (core) => {
    const flow = requireFlow(core, flowRef)
    const result = await call(core, 'export_markdown', {
      flow_id: flow.id,
      ...(values.node ? { node_id: values.node } : {}),
    })
    io.out(`Exported ${result.turns} turns to ${join(core.paths.home, result.file)}`)
    return 0
  })
}

/** `story init NAME`: a scenario project with the seed's layout, ready to open in the app. */
async function storyCommand(values: Values, positionals: string[], io: CliIo): Promise<number> {
  if (positionals[0] !== 'init') throw new UsageError(`unknown story command "${positionals[0]}"; try "init"`)
  const template = values.template ?? 'blank'
  if (!['blank', 'fantasy', 'school'].includes(template))
    throw new UsageError(`--template must be blank, fantasy or school, got "${template}"`)
  const language = values.language
  if (language !== undefined && language !== 'ja' && language !== 'en')
    throw new UsageError(`--language must be ja or en, got "${language}"`)
  return withCore(values, io, async (core) => {
    const story = await call(core, 'story_init', {
      name: positionals[1]!,
      template: template as 'blank' | 'fantasy' | 'school',
      ...(language ? { language } : {}),
    })
    io.out(`Created story "${story.name}" in ${join(core.paths.scenarios, story.name)}`)
    return 0
  })
}

async function importCommand(values: Values, positionals: string[], io: CliIo): Promise<number> {
  if (values.format === 'chatgpt' || values.format === 'card')
    return foreignImport(values.format, positionals[0]!, values, io)
  checkFormat(values.format)
  const dir = resolve(positionals[0]!)
  return withCore(values, io, async (core) => {
    printImport(await call(core, 'vizprompt_import', { path: dir }), dir, io)
    return 0
  })
}

/** ChatGPT's conversations.json, or a SillyTavern character card (PNG, JSON or CHARX). */
async function foreignImport(format: 'chatgpt' | 'card', file: string, values: Values, io: CliIo): Promise<number> {
  const path = resolve(file)
  return withCore(values, io, async (core) => {
    if (format === 'card') {
      const r = await call(core, 'character_card_import', { path })
      io.out(`Imported the ${r.spec} card "${r.persona.name}" as a persona (${r.greetings} greetings)`)
      for (const s of r.skipped) io.err(`Not imported: ${s}`)
      return 0
    }
    const r = await call(core, 'chatgpt_import', { path })
    io.out(`Imported ${r.nodes} nodes in ${r.flows} conversations from ${path}`)
    for (const s of r.skipped.slice(0, SKIPPED_SHOWN)) io.err(`Skipped in "${s.conversation}": ${s.reason}`)
    if (r.skipped.length > SKIPPED_SHOWN) io.err(`…and ${r.skipped.length - SKIPPED_SHOWN} more`)
    return 0
  })
}

/** Queues summaries for stale nodes and waits for the worker to finish them, showing progress. */
async function buildCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  const worker = workersFor(io).jobWorker
  if (!worker) throw new Error('the job worker is not built: run "npm run build" first')
  const core = startCore({ home: resolveHome(values.home, io.env), mode: 'browser', log: io.err, jobWorker: worker })
  try {
    const flowId = values.flow === undefined ? undefined : requireFlow(core, values.flow).id
    let last = ''
    let failed = 0
    core.bus.listen((event, data) => {
      if (event !== 'job_progress') return
      const p = data as { label: string; done: number; total: number; state: string; error?: string }
      const line = `${p.label}: ${p.done}/${p.total}${p.error ? ` (${p.error})` : ''}`
      if (line !== last) io.err((last = line))
      if (p.state === 'failed') failed = p.total - p.done
    })
    const { queued } = await call(core, 'build_summaries', { flow_id: flowId })
    if (queued === 0) {
      io.out('Every summary is up to date.')
      return 0
    }
    await core.jobs.whenIdle()
    io.out(
      failed > 0
        ? `Summarised ${queued - failed} of ${queued} nodes; ${failed} failed.`
        : `Summarised ${queued} nodes.`,
    )
    return failed > 0 ? 1 : 0
  } finally {
    await core.dispose()
  }
}

/** `memory import`: episodes from a chat log, then (unless --no-llm) the memory worker's jobs. */
async function memoryCommand(values: Values, positionals: string[], io: CliIo): Promise<number> {
  if (positionals[0] !== 'import') throw new UsageError(`unknown memory command "${positionals[0]}"; try "import"`)
  const ref = required(values.persona, '--persona NAME_OR_ID')
  const path = resolve(positionals[1]!)
  return withCore(values, io, async (core) => {
    const { id, name } = await findPersona(core, ref)
    const noLlm = values['no-llm'] ?? false
    const stopProgress = importProgress(core, id, io)
    const result = await call(core, 'memory_import', { persona_id: id, path, no_llm: noLlm }).finally(stopProgress)
    for (const e of result.errors) io.err(`Skipped ${e}`)
    if (result.unreadable > result.errors.length) io.err(`… and ${result.unreadable - result.errors.length} more`)
    const repeats = result.skipped - result.unreadable
    io.out(
      `Imported ${result.imported} messages into ${name}'s memory` +
        (repeats > 0 ? `; ${repeats} were there already` : '') +
        (result.unreadable > 0 ? `; ${result.unreadable} lines could not be read` : ''),
    )
    // Anything skipped for being unreadable is a failed import, for scripts as much as for people.
    const readAll = result.unreadable === 0 ? 0 : 1
    if (result.jobs === 0) return readAll
    let status = await call(core, 'memory_status', { persona_id: id })
    let last = ''
    while (status.jobs.due + status.jobs.running > 0) {
      const line = `memory jobs: ${status.jobs.done} done, ${status.jobs.due + status.jobs.running} to go`
      if (line !== last) io.err((last = line))
      await new Promise((r) => setTimeout(r, 500))
      status = await call(core, 'memory_status', { persona_id: id })
    }
    io.out(
      `Memory jobs: ${status.jobs.done} done, ${status.jobs.failed} failed` +
        (status.jobs.queued > 0 ? `; ${status.jobs.queued} summaries run later` : ''),
    )
    return status.jobs.failed > 0 ? 1 : readAll
  })
}

/** A persona by id, else by name; an unknown one is a usage error that lists the personas there are. */
async function findPersona(core: Core, ref: string): Promise<Persona> {
  const personas = await call(core, 'list_personas', {})
  try {
    return matchPersona(personas, ref)
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

function printImport(summary: ImportSummary, dir: string, io: CliIo): void {
  io.out(`Imported ${summary.nodes} nodes and ${summary.flows} flows from ${dir}`)
  for (const c of summary.collisions) {
    const others = c.candidates.map((p) => `nodes/${p}`).join(', ')
    io.out(`Collision ${c.id}: used nodes/${c.chosen}; other versions, best first: ${others}`)
  }
  for (const s of summary.skipped.slice(0, SKIPPED_SHOWN)) io.out(`Skipped ${s.kind} ${s.id} (${s.file}): ${s.reason}`)
  if (summary.skipped.length > SKIPPED_SHOWN) io.out(`… and ${summary.skipped.length - SKIPPED_SHOWN} more skipped`)
  if (summary.removed.length > 0) {
    io.out(`Removed ${summary.removed.length} nodes that no flow holds any more: ${summary.removed.join(', ')}`)
  }
}

// ---- mcp

/** The persona is checked before serving, so a wrong --persona ends at once with the choices. */
async function mcpCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  const home = resolveHome(values.home, io.env)
  const ref = values.persona
  let personaId: string | null = null
  if (ref !== undefined) {
    await withCore(values, io, async (core) => {
      personaId = (await findPersona(core, ref)).id
      return 0
    })
  }
  await runMcpServer({
    home,
    personaId,
    allowWrites: values['allow-writes'] === true,
    err: io.err,
    untilStopped: io.untilStopped,
  })
  return 0
}

// ---- backup, restore

async function backupCommand(values: Values, _: string[], io: CliIo): Promise<number> {
  const folder = values.to === undefined ? undefined : resolve(values.to)
  return withCore(values, io, async (core) => {
    const r = await call(core, 'backup_run', folder === undefined ? {} : { folder })
    if (!r.ok) {
      io.err(`Backup failed: ${r.error}`)
      return 1
    }
    io.out(r.path!)
    io.out(`${r.databases} databases and ${r.files} files, ${r.bytes} bytes, verified`)
    for (const s of r.skipped) io.out(`Left out ${s.path}: ${s.reason}`)
    for (const old of r.removed) io.out(`Removed the older backup ${old}`)
    return 0
  })
}

/** Needs no core: the backup is read, the new folder written, the live data folder never touched. */
async function restoreCommand(values: Values, positionals: string[], io: CliIo): Promise<number> {
  const to = resolve(required(values.to, '--to NEW_HOME'))
  const report = await restoreBackup(resolve(positionals[0]!), to, resolveHome(values.home, io.env))
  io.out(`Restored ${report.restored.length} files into ${report.home}`)
  for (const f of report.failed) io.err(`Not restored, failed verification: ${f.path}: ${f.reason}`)
  io.out(`Open it with: loomverse serve --home "${report.home}" (or LOOMVERSE_HOME="${report.home}")`)
  return report.ok ? 0 : 1
}

/** Below this many lines an import is over in moments: no progress lines. */
const IMPORT_PROGRESS_MIN_LINES = 10_000

/**
 * A long import's progress on stderr, a line at each tenth of the file (a million lines take
 * many minutes), from the events a window's status bar shows. Answers the listener's stop.
 */
function importProgress(core: Core, personaId: string, io: CliIo): () => void {
  let tenths = 0
  return core.bus.listen((event, data) => {
    if (event !== 'job_progress') return
    const p = data as { job_id: string; label: string; done: number; total: number }
    if (p.job_id !== `memory-import:${personaId}` || p.total < IMPORT_PROGRESS_MIN_LINES) return
    const reached = Math.floor((10 * p.done) / p.total)
    if (reached <= tenths) return
    tenths = reached
    io.err(`${p.label}: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')} lines`)
  })
}

async function withCore(values: Values, io: CliIo, run: (core: Core) => Promise<number>): Promise<number> {
  const core = startCore({ home: resolveHome(values.home, io.env), mode: 'browser', log: io.err })
  try {
    return await run(core)
  } finally {
    await core.dispose()
  }
}

/** Through the router, so the command line gets the same checks as every window. */
async function call<M extends Method>(core: Core, method: M, input: In<M>): Promise<Out<M>> {
  const result = await core.router.call(method, input, { transport: 'internal' })
  if (result.ok) return result.value as Out<M>
  const { code, message } = result.error
  throw code === 'bad_input' ? new UsageError(message) : new AppError(code, message)
}

/** A flow by id, else by name; null when there is none, an error when the name is ambiguous. */
function requireFlow(core: Core, ref: string): FlowSummary {
  const flow = core.graph.findFlow(ref)
  if (!flow) throw new AppError('not_found', `no flow named "${ref}"`)
  return flow
}

/** `--prompt TEXT` (seed §12.1) or `--prompt-file F`: exactly one of the two. */
async function textOrFile(text: string | undefined, file: string | undefined, what: string): Promise<string> {
  if (text !== undefined && file !== undefined) throw new UsageError(`give --${what} or --${what}-file, not both`)
  if (text !== undefined) return text
  return readInputFile(required(file, `--${what} TEXT or --${what}-file F`), what)
}

async function readInputFile(path: string, what: string): Promise<string> {
  try {
    return (await readFile(resolve(path), 'utf8')).replace(/^\uFEFF/, '')
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message
    throw new AppError('not_found', `cannot read the ${what} file "${path}": ${reason}`)
  }
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`)
  return value
}

function checkFormat(format: string | undefined): void {
  if (format !== undefined && format !== 'vizprompt') {
    throw new UsageError(
      `--format must be "vizprompt", or "markdown" to export, or "chatgpt" or "card" to import; got "${format}"`,
    )
  }
}

/** "a, b,,c" → ["a", "b", "c"] */
function list(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/** The process entry used by bin/loomverse.js. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<never> {
  const io: CliIo = {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    env: process.env,
    untilStopped: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve())
        process.once('SIGTERM', () => resolve())
      }),
  }
  try {
    process.exit(await runCli(argv, io))
  } catch (e) {
    console.error(e)
    process.exit(1)
  }
}
