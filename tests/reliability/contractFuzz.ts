import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { contract, type Method } from '@shared/contract'
import { errorCodes, type ErrorValue } from '@shared/errors'
import { startCore, type Core } from '../../main/core'
import { startHost, type Host } from '../../main/host/wsHost'
import { startFakeLlm } from '../support/fakeLlm'
import { seededRandom } from '../support/seededRandom'
import { sourceWorker } from '../support/sourceWorker'
import { emptyPools, InputFuzzer, type IdPools } from './fuzzInputs'
import { WireClient, type WireReply } from './wireClient'

export interface FuzzResult {
  suite: 'fuzz'
  seed: number
  calls: number
  /** Of those, how many went over the real WebSocket host (the rest straight to the router). */
  via_ws: number
  /** Malformed envelopes (not JSON, no action, binary…) sent to the host as raw text. */
  envelopes: number
  /** Must be 0: an `internal` error is a bug the caller cannot fix by changing the input. */
  internal_errors: number
  /** Must be 0: calls with no reply within the timeout. */
  missing_replies: number
  /** Must be 0: uncaught exceptions or unhandled rejections while fuzzing. */
  crashes: number
  /** Replies that are neither a success nor an error code of shared/errors.ts. */
  malformed_replies: number
  ok: number
  by_code: Record<string, number>
  methods: number
  /** Methods that answered at least one call with a value: how deep plausible inputs got. */
  methods_with_success: number
  /** The first few failures, each with the method and a short view of the input. */
  failures: string[]
}

const CALL_TIMEOUT_MS = 30_000
const RESEED_EVERY = 100
/**
 * Methods excluded, with why. Keep it short: only what cannot be called safely.
 * - mcp_save_server, mcp_import: they list programs in mcp.json that the next MCP call starts;
 *   random program names and arguments are not run on the machine the tests run on.
 */
const excluded = new Set<Method>(['mcp_save_server', 'mcp_import'])

/**
 * The contract fuzzer: random, malformed and boundary inputs for every method of the
 * contract, drawn from the method's own schema with a seeded generator, called on a real
 * core (temporary home, real SQLite, the job worker, a fake LLM over real HTTP) — most
 * through the router, every `wsEvery`-th over the real WebSocket host — and every reply
 * checked: there is one, and an error is one a caller can act on, never `internal`.
 */
export async function fuzzContract(options: { calls: number; seed: number; wsEvery: number }): Promise<FuzzResult> {
  // Which method, and what input, come from two streams: with one plain LCG for both, some
  // methods' inputs never named a real thing (load_flow never got a real flow id).
  const random = seededRandom(options.seed)
  const inputRandom = seededRandom(options.seed * 7919 + 104_729)
  const result: FuzzResult = {
    suite: 'fuzz',
    seed: options.seed,
    calls: 0,
    via_ws: 0,
    envelopes: 0,
    internal_errors: 0,
    missing_replies: 0,
    crashes: 0,
    malformed_replies: 0,
    ok: 0,
    by_code: {},
    methods: 0,
    methods_with_success: 0,
    failures: [],
  }
  const fail = (line: string) => {
    if (result.failures.length < 25) result.failures.push(line)
  }
  const onCrash = (e: unknown) => {
    result.crashes++
    fail(`crash: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
  }
  process.on('uncaughtException', onCrash)
  process.on('unhandledRejection', onCrash)

  const home = mkdtempSync(join(tmpdir(), 'loomverse-fuzz-'))
  const llm = await startFakeLlm()
  let core: Core | null = null
  let host: Host | null = null
  let client: WireClient | null = null
  try {
    core = startCore({
      home,
      mode: 'browser',
      checkOutput: true, // a handler answering outside its schema is a bug too
      jobWorker: sourceWorker(),
      log: () => {},
      env: {
        OPENAI_BASE_URL: `${llm.url}/v1`,
        OPENAI_API_KEY: 'sk-test',
        LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini',
        LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini',
      },
    })
    const token = 'fuzz-token-0123456789abcdef'
    host = await startHost({ router: core.router, bus: core.bus, token, port: 0, staticDir: null })
    client = await WireClient.open(`ws://127.0.0.1:${host.port}/ws?token=${token}`)
    const pools = await seedWorld(core, emptyPools())
    const fuzzer = new InputFuzzer(inputRandom, pools)
    const methods = (Object.keys(contract) as Method[]).filter((m) => !excluded.has(m))
    result.methods = methods.length

    const succeeded = new Set<Method>()
    // `calls` counts method calls; the broken envelopes sent on the way come on top.
    for (let n = 0; result.calls < options.calls; n++) {
      // Every method in turn first, then at random: a short run still reaches all of them.
      const method = n < methods.length ? methods[n]! : methods[Math.floor(random() * methods.length)]!
      const viaWs = n % options.wsEvery === options.wsEvery - 1
      if (viaWs && random() < 0.2) {
        await fuzzEnvelope(client, random, result, fail)
        continue
      }
      // Deletes empty the pools as the run goes on: a fresh little world keeps plausible inputs plausible.
      if (n % RESEED_EVERY === RESEED_EVERY - 1) await seedWorld(core, pools)
      const input = fuzzer.input(method)
      result.calls++
      if (viaWs) result.via_ws++
      let reply: WireReply
      try {
        reply = viaWs
          ? await client.call(method, input, CALL_TIMEOUT_MS)
          : // As a window calls (never the trusted command line): random paths must stay inside the temp home.
            await withTimeout(core.router.call(method, input, { transport: 'ws' }), method)
      } catch (e) {
        result.missing_replies++
        fail(`${method} ${preview(input)}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
        continue
      }
      record(reply, result, `${method} ${viaWs ? '(ws) ' : ''}${preview(input)}`, fail)
      if (reply.ok) {
        succeeded.add(method)
        harvest(method, reply.value, pools)
        forget(method, input, pools)
      }
    }
    result.methods_with_success = succeeded.size
  } finally {
    client?.close()
    await host?.close()
    await core?.dispose()
    await llm.close()
    rmSync(home, { recursive: true, force: true })
    process.off('uncaughtException', onCrash)
    process.off('unhandledRejection', onCrash)
  }
  return result
}

function record(reply: WireReply, result: FuzzResult, what: string, fail: (line: string) => void): void {
  if (reply.ok) {
    result.ok++
    return
  }
  const error = reply.error as ErrorValue | undefined
  const code = error?.code ?? '(none)'
  result.by_code[code] = (result.by_code[code] ?? 0) + 1
  if (!error || !errorCodes.includes(error.code) || typeof error.message !== 'string') {
    result.malformed_replies++
    fail(`${what}: malformed error reply ${JSON.stringify(error)}`)
  } else if (code === 'internal' || (code === 'unknown_method' && !what.startsWith('envelope'))) {
    result.internal_errors++
    fail(`${what}: ${code}: ${error.message.slice(0, 300)}`)
  }
}

/** A broken message envelope, sent as raw text: the host must answer it with a client error and carry on. */
async function fuzzEnvelope(
  client: WireClient,
  random: () => number,
  result: FuzzResult,
  fail: (line: string) => void,
): Promise<void> {
  const envelopes = [
    'not json',
    '',
    '[]',
    'null',
    '{"id": 7}',
    '{"id": 8, "action": 5, "data": {}}',
    '{"id": 9, "action": "subscribe", "data": {"events": ["nope"]}}',
    '{"id": 10, "action": "subscribe", "data": 3}',
    '{"id": {"x": 1}, "action": "app_info", "data": {}}',
    '{"id": 11, "action": "__proto__", "data": {}}',
    '{"id": 12, "action": "app_info", "data": {}, "extra": "\\u0000"}',
    `{"id": 13, "action": "app_info", "data": ${'['.repeat(5000)}${']'.repeat(5000)}}`,
    '{"id": 14, "action": "create_flow", "data": {"name": "\\ud800"}}',
  ]
  const text = envelopes[Math.floor(random() * envelopes.length)]!
  result.envelopes++
  try {
    const reply = await client.raw(text, CALL_TIMEOUT_MS)
    record(reply, result, `envelope ${preview(text)}`, fail)
  } catch (e) {
    result.missing_replies++
    fail(`envelope ${preview(text)}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** A small world to aim at: a persona with a memory, a flow with a branch, a document, a trashed object. */
async function seedWorld(core: Core, pools: IdPools): Promise<IdPools> {
  const call = async <T>(method: string, input: unknown): Promise<T> => {
    const r = await core.router.call(method, input, { transport: 'internal' })
    if (!r.ok) throw new Error(`seeding the fuzz world: ${method}: ${r.error.code}: ${r.error.message}`)
    harvest(method, r.value, pools)
    return r.value as T
  }
  const persona = await call<{ id: string }>('create_persona', { name: 'Fuzz' })
  const flow = await call<{ id: string }>('create_flow', { name: 'fuzz', persona_id: persona.id })
  const a = await call<{ id: string }>('create_node', { flow_id: flow.id, prompt: 'root', response: 'r' })
  await call('create_node', { flow_id: flow.id, prompt: 'child', response: 'c', parent_ids: [a.id] })
  await call('create_branch', { node_id: a.id, prompt: 'branch' })
  await call('memory_add_unit', { persona_id: persona.id, kind: 'fact', text: 'the user likes tea' })
  await call('document_create', { name: 'notes', description: 'notes', content: 'line one\nline two\n' })
  const world = await call<{ buildings: Array<{ id: string }> }>('get_world', {})
  pools.buildings.push(...world.buildings.map((b) => b.id))
  const object = await call<{ id: string }>('object_create', { name: 'cup', description: 'a cup' })
  await call('item_delete', { item_id: object.id })
  return pools
}

/** What successful calls made: later inputs can name it. */
function harvest(method: string, value: unknown, pools: IdPools): void {
  const v = value as Record<string, unknown> | null
  if (!v || typeof v !== 'object') return
  const id = typeof v.id === 'string' ? v.id : null
  if (id && method === 'create_flow') pools.flows.push(id)
  else if (id && (method === 'create_node' || method === 'create_branch')) pools.nodes.push(id)
  else if (id && method === 'create_persona') pools.personas.push(id)
  else if (id && method === 'create_building') pools.buildings.push(id)
  else if (
    id &&
    ['document_create', 'object_create', 'picture_upload', 'generate_image', 'item_restore'].includes(method)
  )
    pools.items.push(id)
  if (typeof v.node_id === 'string' && method.startsWith('chat_')) pools.nodes.push(v.node_id)
  if (typeof v.trash_id === 'string') pools.trash.push(v.trash_id)
  const unit = v.unit as { id?: unknown } | undefined
  if (method === 'memory_add_unit' && typeof unit?.id === 'number') pools.units.push(unit.id)
}

/** What a successful delete removed: later plausible inputs should not keep naming it. */
function forget(method: string, input: unknown, pools: IdPools): void {
  const i = input as Record<string, unknown>
  const drop = <T>(list: T[], value: unknown) => {
    const at = list.indexOf(value as T)
    if (at >= 0) list.splice(at, 1)
  }
  if (method === 'delete_flow') drop(pools.flows, i.id)
  else if (method === 'delete_persona') drop(pools.personas, i.id)
  else if (method === 'delete_building') drop(pools.buildings, i.id)
  else if (method === 'item_delete') drop(pools.items, i.item_id)
  else if (method === 'item_restore') drop(pools.trash, i.trash_id)
  else if (method === 'memory_delete_unit') drop(pools.units, i.unit_id)
}

function withTimeout<T>(promise: Promise<T>, method: string): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply to ${method} within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS)
    }),
  ])
}

/** A short, printable view of an input (huge strings and deep objects cut). */
function preview(input: unknown): string {
  let text: string
  try {
    text = typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input))
  } catch {
    text = String(input)
  }
  return JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}… (${text.length} chars)` : text)
}
