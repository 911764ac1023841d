// "Build summaries" on a big flow: queues one summary job per node (10,000 by default) and
// lets the job worker drain them against the fake LLM over real HTTP, while the main event
// loop is watched. Every finished job reaches the main thread as a progress report; the
// delay percentiles say whether that bookkeeping stalls the host (target: p99 ≤ 100 ms).
// Prints one JSON line. Run with `npm run bench:jobs` (`-- --jobs N` for another size).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { JobProgress } from '../../shared/contract'
import { startCore } from '../../main/core'
import { startFakeLlm } from '../../tests/support/fakeLlm'
import { sourceWorker } from '../../tests/support/sourceWorker'
import { generateFlow } from '../graphFixture'

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '10000' } } })
const jobs = Number(values.jobs)
if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a positive integer, got "${values.jobs}"`)

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-jobs-'))
const fake = await startFakeLlm({ keepRequests: false })
fake.script({ provider: 'openai', reply: '要約: ベンチの要約。\nタグ: bench, jobs, summary' })
const core = startCore({
  home,
  mode: 'browser',
  log: () => {},
  jobWorker: sourceWorker(),
  env: {
    OPENAI_BASE_URL: `${fake.url}/v1`,
    OPENAI_API_KEY: 'sk-test',
    LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:gpt-4o-mini',
  },
})
try {
  const flow = generateFlow(core.graph, jobs, { name: 'bench', positioned: true })
  let events = 0
  const finished = new Promise<JobProgress>((resolve) =>
    core.bus.listen((event, data) => {
      if (event !== 'job_progress') return
      events++
      const p = data as JobProgress
      if (p.state === 'done' || p.state === 'failed') resolve(p)
    }),
  )
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const t0 = performance.now()
  const queued = await core.router.call('build_summaries', { flow_id: flow.id }, { transport: 'internal' })
  if (!queued.ok) throw new Error(queued.error.message)
  const last = await finished
  const seconds = (performance.now() - t0) / 1000
  delay.disable()
  console.log(
    JSON.stringify({
      bench: 'jobs.summaries',
      jobs,
      done: last.done,
      failed: last.total - last.done,
      progress_events: events,
      seconds: +seconds.toFixed(1),
      jobs_per_s: Math.round(jobs / seconds),
      loop_delay_p50_ms: +(delay.percentile(50) / 1e6).toFixed(2),
      loop_delay_p99_ms: +(delay.percentile(99) / 1e6).toFixed(2),
      loop_delay_max_ms: +(delay.max / 1e6).toFixed(2),
    }),
  )
} finally {
  await core.dispose()
  await fake.close()
  rmSync(home, { recursive: true, force: true })
}
