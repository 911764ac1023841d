// Where the main thread's time goes between a POST /api/chat arriving and its first `delta`
// leaving, phase by phase (p50/p95 in ms from the request's arrival), with the same set-up as
// bench/api/run.ts: the client and the model in a process of their own, the job worker running.
// A diagnostic beside api.chat_first_delta, not a target: run with
// `tsx --tsconfig tsconfig.node.json bench/api/spans.ts -- --runs N --first-token-ms M`.
import { subscribe } from 'node:diagnostics_channel'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { PerformanceObserver } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { getHeapSpaceStatistics } from 'node:v8'
import Database from 'better-sqlite3'
import { startCore } from '../../main/core'
import { SseStream } from '../../main/host/sse'
import { MemoryService } from '../../main/memory/memory'
import { allocationSites } from './allocationSites'
import { sourceWorker } from '../../tests/support/sourceWorker'
import { callerOf, startApiHost, percentile, startOutside } from '../support'
import type { FromOutside } from './outside'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100' }, 'first-token-ms': { type: 'string', default: '0' } },
})
const runs = Number(values.runs)
const firstTokenMs = Number(values['first-token-ms'])

/** Marks of the request being served now (requests go one at a time). */
let marks: Map<string, number> | null = null
/**
 * The process's CPU time since the request arrived, at each mark: a figure a busy machine
 * inflates far less than the wall clock's (the job worker is mostly idle meanwhile, so it is
 * nearly all the main thread's).
 */
let cpu: Map<string, number> | null = null
let cpuAtArrival = process.cpuUsage()
/** Marks the CPU time is read at: ~10 µs a read, ~0.3 ms under --cpu-prof, so not at every mark. */
const CPU_MARKS = new Set(['model_request_sent', 'sse_delta_written'])
const mark = (name: string) => {
  if (!marks || marks.has(name)) return
  marks.set(name, performance.now())
  if (name === 'sse_delta_written') {
    allocated = newSpaceUsed() - newAtArrival
    heap?.stop()
  }
  if (!CPU_MARKS.has(name)) return
  const used = process.cpuUsage(cpuAtArrival)
  cpu!.set(name, (used.user + used.system) / 1000)
}
/**
 * The collector's pauses (start, duration), and the young generation's size at each request's
 * arrival: the more a request allocates before its first delta, the likelier a scavenge lands
 * in it, and a request that met one is among the slowest (the p95).
 */
const gcPauses: Array<[start: number, ms: number]> = []
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration])
}).observe({ entryTypes: ['gc'] })
const newSpaceUsed = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_used_size ?? 0
let newAtArrival = 0
/** Bytes the young generation grew by until the first delta went out (read only where no collection came between). */
let allocated: number | null = null
// SPANS_HEAP=1: where those bytes come from (allocationSites.ts). The profiler slows every request.
// The first requests (SPANS_HEAP_FROM, 20) are left out: the models load in the background
// meanwhile, and what loading allocates once is not what each request costs.
const heap = process.env.SPANS_HEAP ? allocationSites() : null
const heapFrom = Number(process.env.SPANS_HEAP_FROM ?? 20)
let arrived = 0
subscribe('http.server.request.start', (m) => {
  const { request } = m as { request: { url?: string } }
  if (request.url !== '/api/chat') return
  marks = new Map([['arrive', performance.now()]])
  cpu = new Map()
  cpuAtArrival = process.cpuUsage()
  newAtArrival = newSpaceUsed()
  allocated = null
  if (++arrived > heapFrom) heap?.start()
})
subscribe('undici:request:create', () => mark('model_request_created'))
subscribe('undici:client:sendHeaders', () => mark('model_request_sent'))
subscribe('undici:request:headers', () => mark('model_headers_in'))
const send = SseStream.prototype.send
SseStream.prototype.send = function (this: SseStream, event: string, data: unknown) {
  if (event === 'delta') mark('sse_delta_written')
  return send.call(this, event, data)
}
const packFor = MemoryService.prototype.packFor
MemoryService.prototype.packFor = async function (this: MemoryService, input) {
  mark('pack_start')
  try {
    return await packFor.call(this, input)
  } finally {
    mark('pack_end')
  }
}

// SPANS_WRITES=1: the statements that write (run()) between a request's arrival and its first
// delta, counted by phase: a write before the model's request leaves delays it. SPANS_WRITES=all:
// every statement (reads too).
const statements = new Map<string, number>()
if (process.env.SPANS_WRITES) {
  const probe = new Database(':memory:')
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { run: (...a: unknown[]) => unknown }
  probe.close()
  const count = (kind: string, source: string) => {
    if (marks && !marks.has('sse_delta_written')) {
      const phase = marks.has('model_request_sent') ? 'after_request' : 'before_request'
      const key = `${phase} ${kind} ${source.replace(/\s+/g, ' ').slice(0, 90)}`
      statements.set(key, (statements.get(key) ?? 0) + 1)
    }
  }
  const methods = process.env.SPANS_WRITES === 'all' ? (['run', 'get', 'all', 'iterate'] as const) : (['run'] as const)
  for (const name of methods) {
    const original = (statement as Record<string, (...a: unknown[]) => unknown>)[name]!
    ;(statement as Record<string, (...a: unknown[]) => unknown>)[name] = function (
      this: { source: string },
      ...args: unknown[]
    ) {
      count(name, this.source)
      return original.apply(this, args)
    }
  }
}

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-api-spans-'))
const outside = await startOutside()
const answers = new Map<number, (m: Extract<FromOutside, { type: 'chat' }>) => void>()
outside.onMessage((m) => {
  if (m.type === 'chat') answers.get(m.id)?.(m)
})
const core = startCore({
  home,
  mode: 'browser',
  log: process.env.SPANS_LOG ? (m) => console.error(m) : () => {},
  env: outside.env,
  jobWorker: sourceWorker('job'),
})
const routerCall = core.router.call.bind(core.router)
core.router.call = async (method, input, ctx) => {
  mark(`${method}_start`)
  try {
    return await routerCall(method, input, ctx)
  } finally {
    mark(`${method}_end`)
  }
}
core.bus.listen((event) => {
  if (event === 'node_stream') mark('node_stream')
  if (event === 'node_updated') mark('node_updated')
})
const host = await startApiHost(core)
try {
  const call = callerOf(core)
  const persona = await call<{ id: string }>('create_persona', { name: 'Bench' })
  const { token } = await call<{ token: string }>('api_token_create', { name: 'bench' })
  outside.send({ type: 'first_token_ms', ms: firstTokenMs })
  const rows: Array<Map<string, number>> = []
  const cpuRows: Array<Map<string, number>> = []
  const totals: number[] = []
  const allocations: Array<number | null> = []
  for (let i = 0; i < runs; i++) {
    const ms = await new Promise<number>((resolve, reject) => {
      answers.set(i, (m) => ('ms' in m ? resolve(m.ms) : reject(new Error(m.error))))
      outside.send({
        type: 'chat',
        id: i,
        port: host.port,
        token,
        body: { persona_id: persona.id, text: `hello ${i}` },
      })
    })
    totals.push(ms)
    if (marks) {
      rows.push(marks)
      allocations.push(allocated)
    }
    if (cpu) cpuRows.push(cpu)
    marks = null
    cpu = null
  }
  const names = [...new Set(rows.flatMap((r) => [...r.keys()]))].filter((n) => n !== 'arrive')
  const at = (r: Map<string, number>, n: string) => (r.has(n) ? r.get(n)! - r.get('arrive')! : null)
  const phases = names
    .map((n) => {
      const samples = rows.map((r) => at(r, n)).filter((x): x is number => x !== null)
      const cpuMs = cpuRows.flatMap((r) => (r.has(n) ? [r.get(n)!] : []))
      return {
        mark: n,
        n: samples.length,
        p50_ms: percentile(samples, 50),
        p95_ms: percentile(samples, 95),
        ...(cpuMs.length > 0 ? { cpu_p50_ms: percentile(cpuMs, 50), cpu_p95_ms: percentile(cpuMs, 95) } : {}),
      }
    })
    .sort((a, b) => a.p50_ms - b.p50_ms)
  // SPANS_ROWS: each request's marks (ms from its arrival) and CPU time, for reading the slowest apart.
  if (process.env.SPANS_ROWS) {
    const perRequest = rows.map((r, i) => ({
      wall: Object.fromEntries([...r].map(([k, v]) => [k, +(v - r.get('arrive')!).toFixed(3)])),
      cpu: Object.fromEntries(cpuRows[i] ?? []),
    }))
    writeFileSync(process.env.SPANS_ROWS, JSON.stringify(perRequest))
  }
  // For reading a --cpu-prof profile by request: each request's marks on the profile's clock (µs).
  if (process.env.SPANS_WINDOWS) {
    const offsetUs = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000
    const windows = rows.map((r) => Object.fromEntries([...r].map(([k, v]) => [k, v * 1000 + offsetUs])))
    writeFileSync(process.env.SPANS_WINDOWS, JSON.stringify(windows))
  }
  if (heap) {
    const { sites, ...sums } = heap.report(25)
    console.log(JSON.stringify({ bench: 'api.chat_spans_allocations', first_token_ms: firstTokenMs, ...sums }))
    for (const site of sites) console.log(JSON.stringify({ bench: 'api.chat_spans_allocation_site', ...site }))
  }
  for (const [statement, count] of statements)
    console.log(JSON.stringify({ bench: 'api.chat_spans_writes', statement, per_request: +(count / runs).toFixed(2) }))
  for (const p of phases) console.log(JSON.stringify({ bench: 'api.chat_spans', first_token_ms: firstTokenMs, ...p }))
  // The collector's pauses between each request's arrival and its first delta: how many requests
  // met one, and the pause time of those that did.
  const paused = rows.map((r) => {
    const [from, to] = [r.get('arrive')!, r.get('sse_delta_written') ?? r.get('arrive')!]
    return gcPauses.filter(([at]) => at >= from && at <= to).reduce((sum, [, ms]) => sum + ms, 0)
  })
  const met = paused.filter((ms) => ms > 0)
  const kb = allocations.flatMap((bytes, i) => (bytes !== null && paused[i] === 0 ? [bytes / 1024] : []))
  console.log(
    JSON.stringify({
      bench: 'api.chat_spans_gc',
      first_token_ms: firstTokenMs,
      allocated_to_first_delta_kb_p50: kb.length > 0 ? percentile(kb, 50) : null,
      requests_with_gc_pause: met.length,
      gc_pause_ms_p50_of_those: met.length > 0 ? percentile(met, 50) : null,
    }),
  )
  console.log(
    JSON.stringify({
      bench: 'api.chat_spans',
      first_token_ms: firstTokenMs,
      mark: 'client_first_delta',
      p50_ms: percentile(totals, 50),
      p95_ms: percentile(totals, 95),
      // The machine's load (1 and 5 minutes) as the run ends: the wall-clock figures grow with it.
      load: loadavg()
        .slice(0, 2)
        .map((l) => +l.toFixed(2)),
    }),
  )
} finally {
  await host.close()
  await core.dispose()
  outside.close()
  rmSync(home, { recursive: true, force: true })
}
