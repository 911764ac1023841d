// The first reply after the app starts, beside the replies after it: milliseconds from a
// window's chat_send to the node's first streamed text, each run in a fresh process on the same
// data folder (a persona and its conversation made beforehand), the process idle for a moment
// first as a user reads the window. Prints one JSON line for each setting, interleaved run by
// run: with the start-up warm-up (CoreOptions.warmUp, as the app and `serve` run) and without it,
// the memory worker and the job worker running in both (and so memory's own warm-up, which comes
// with its worker: WordNet and the word model's file, MemoryService.warmModels).
// Run with `npm run bench:first` (`-- --runs N --idle-ms M`).
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { startCore } from '../../main/core'
import { sourceWorker } from '../../tests/support/sourceWorker'
import { callerOf, chatTurn, percentile, startOutside } from '../support'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    'idle-ms': { type: 'string', default: '3000' },
    // Internal: one measured start (the child's side).
    child: { type: 'string' },
    warm: { type: 'boolean', default: false },
  },
})
const TURNS = 4

if (values.child) await measure(values.child, values.warm, Number(values['idle-ms']))
else await compare()

async function compare(): Promise<void> {
  const runs = Number(values.runs)
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got "${values.runs}"`)
  const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-first-'))
  try {
    await prepare(home)
    const by = { cold: [] as number[][], warm: [] as number[][] }
    for (let i = 0; i < runs; i++)
      for (const warm of i % 2 === 0 ? [false, true] : [true, false])
        by[warm ? 'warm' : 'cold'].push(await child(home, warm))
    for (const [setting, rows] of Object.entries(by))
      console.log(
        JSON.stringify({
          bench: 'api.first_reply',
          runs,
          warm_up: setting === 'warm',
          first_reply_p50_ms: percentile(
            rows.map((r) => r[0]!),
            50,
          ),
          // The replies after it in the same process: what a reply costs once everything is loaded.
          later_replies_p50_ms: percentile(
            rows.flatMap((r) => r.slice(1)),
            50,
          ),
          first_replies_ms: rows.map((r) => +r[0]!.toFixed(1)),
        }),
      )
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

/** A persona and its conversation, made in this process; the measured starts are other processes. */
async function prepare(home: string): Promise<void> {
  const core = startCore({ home, mode: 'browser', log: () => {}, jobWorker: null })
  try {
    const call = callerOf(core)
    const persona = await call<{ id: string }>('create_persona', { name: 'Bench' })
    await call('create_flow', { name: 'first reply', persona_id: persona.id })
  } finally {
    await core.dispose()
  }
}

/** One fresh process's reply times, first one first. */
function child(home: string, warm: boolean): Promise<number[]> {
  const proc = fork(
    fileURLToPath(import.meta.url),
    ['--child', home, '--idle-ms', values['idle-ms']!, ...(warm ? ['--warm'] : [])],
    {
      execArgv: ['--import', pathToFileURL(join(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href],
      env: { ...process.env, TSX_TSCONFIG_PATH: join(import.meta.dirname, '../../tsconfig.node.json') },
    },
  )
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve(m as number[]))
    proc.once('error', reject)
    proc.once('exit', (code) => code !== 0 && reject(new Error(`the measured process exited with ${code}`)))
  })
}

/** The child's side: start on `home`, wait as a user would, then reply TURNS times. */
async function measure(home: string, warmUp: boolean, idleMs: number): Promise<void> {
  const outside = await startOutside()
  const core = startCore({
    home,
    mode: 'browser',
    log: () => {},
    env: outside.env,
    jobWorker: sourceWorker('job'),
    memoryWorker: sourceWorker('memory'),
    warmUp,
  })
  try {
    await new Promise((resolve) => setTimeout(resolve, idleMs))
    const [flow] = await callerOf(core)<Array<{ id: string; persona_id: string }>>('list_flows', {})
    const ms: number[] = []
    let parent: string | null = null
    for (let i = 0; i < TURNS; i++) {
      const turn = await chatTurn(core, {
        flow_id: flow!.id,
        prompt: `my cat Mochi sleeps on the sofa all afternoon, do you remember her? (${i})`,
        persona_id: flow!.persona_id,
        parent_id: parent,
      })
      parent = turn.nodeId
      ms.push(turn.firstMs)
    }
    process.send!(ms)
  } finally {
    await core.dispose()
    outside.close()
  }
}
