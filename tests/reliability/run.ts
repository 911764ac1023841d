// `npm run test:reliability`: issue 16's reliability suite at full size (or bounded with
// LOOMVERSE_RELIABILITY=bounded). One JSON line per suite on stdout, progress on stderr; exits
// 1 if any figure that must be 0 is not. Name suites to run only those:
//   npm run test:reliability -- fuzz kill_writes
import { buildAppOnce } from './builtApp'
import { fuzzContract } from './contractFuzz'
import { frames, hostileCorpus } from './corpora'
import { sendFrames } from './frameCorpusRun'
import { runHostileImports } from './hostileImportRun'
import { killDuringImports } from './killDuringImports'
import { killDuringStory } from './killDuringStory'
import { killDuringWork } from './killDuringWork'
import { killDuringWrites } from './killDuringWrites'
import { killNotifications } from './killNotifications'
import { memoryGrowth, memoryGrowthTurns } from './memoryGrowth'
import { importStall, importStallSize } from './importStall'
import { suiteSize } from './size'
import { killWorkerUnderLoad, workerKillSize } from './workerKill'
import buildTestWorkers from '../support/builtTestWorkers'

const size = suiteSize({ LOOMVERSE_RELIABILITY: 'full', ...process.env })
const suites = [
  'kill_writes',
  'kill_work',
  'kill_story',
  'kill_notifications',
  'kill_imports',
  'frames',
  'hostile_imports',
  'fuzz',
  'worker_kill',
  'import_stall',
  'memory_growth',
] as const
const chosen = process.argv.slice(2)
const unknown = chosen.filter((name) => !(suites as readonly string[]).includes(name))
if (unknown.length > 0) {
  console.error(`test:reliability: unknown suite ${unknown.join(', ')}; choose from ${suites.join(', ')}`)
  process.exit(2)
}
const wanted = (name: (typeof suites)[number]) => chosen.length === 0 || chosen.includes(name)

const failures: string[] = []
/** Prints the suite's line and notes each must-be-zero figure that is not. */
function report(line: Record<string, unknown>, mustBeZero: string[]): void {
  console.log(JSON.stringify({ ...line, size: size.size }))
  for (const key of mustBeZero) if (line[key] !== 0) failures.push(`${String(line.suite)}: ${key} = ${line[key]}`)
}
const progress = (text: string) => console.error(`[reliability] ${text}`)

if (
  wanted('kill_writes') ||
  wanted('kill_work') ||
  wanted('kill_story') ||
  wanted('kill_notifications') ||
  wanted('kill_imports') ||
  wanted('frames')
) {
  progress('building the app')
  buildAppOnce()
}
if (wanted('kill_writes')) {
  const r = await killDuringWrites({
    iterations: size.killIterations,
    seed: size.seed,
    onIteration: (i, so) =>
      progress(
        `kill -9 during writes ${i + 1}/${size.killIterations}: ${so.acknowledged} acknowledged, ${so.lost} lost`,
      ),
  })
  report(r as unknown as Record<string, unknown>, ['lost', 'corrupt'])
}
if (wanted('kill_work')) {
  const r = await killDuringWork({
    iterations: size.workKillIterations,
    onIteration: (i) => progress(`kill -9 during a reply and jobs ${i + 1}/${size.workKillIterations}`),
  })
  report(r as unknown as Record<string, unknown>, ['streaming_left', 'jobs_stuck'])
}
if (wanted('kill_story')) {
  const r = await killDuringStory({
    iterations: size.storyKillIterations,
    seed: size.seed,
    onIteration: (i, so) =>
      progress(`kill -9 during story work ${i + 1}/${size.storyKillIterations}: ${so.acknowledged} acknowledged`),
  })
  report(r as unknown as Record<string, unknown>, ['lost', 'broken', 'leftovers'])
}
if (wanted('kill_notifications')) {
  // Each iteration sends up to 24 notifications and kills the host once.
  const iterations = size.size === 'full' ? 10 : 2
  const r = await killNotifications({
    iterations,
    seed: size.seed,
    onIteration: (i, so) =>
      progress(`kill -9 over notifications ${i + 1}/${iterations}: ${so.acknowledged} acknowledged`),
  })
  report(r as unknown as Record<string, unknown>, ['unanswered', 'duplicated'])
}
if (wanted('kill_imports')) {
  // Each iteration imports a ChatGPT export of 4,500 nodes and kills the host once.
  const iterations = size.size === 'full' ? 20 : 3
  const r = await killDuringImports({
    iterations,
    seed: size.seed,
    onIteration: (i, so) =>
      progress(`kill -9 during imports ${i + 1}/${iterations}: ${so.acknowledged} acknowledged, ${so.cut} cut`),
  })
  report(r as unknown as Record<string, unknown>, ['lost', 'partial', 'not_retried', 'corrupt'])
}
if (wanted('frames')) {
  report((await sendFrames(frames)) as unknown as Record<string, unknown>, ['host_crashes', 'good_client_unanswered'])
}
if (wanted('hostile_imports')) {
  report((await runHostileImports(hostileCorpus)) as unknown as Record<string, unknown>, [
    'accepted',
    'unnamed',
    'leaked',
  ])
}
if (wanted('fuzz')) {
  progress(`fuzzing the contract: ${size.fuzzCalls} calls, seed ${size.seed}`)
  const r = await fuzzContract({ calls: size.fuzzCalls, seed: size.seed, wsEvery: size.fuzzWsEvery })
  report(r as unknown as Record<string, unknown>, [
    'internal_errors',
    'missing_replies',
    'crashes',
    'malformed_replies',
  ])
}

if (wanted('worker_kill')) {
  const load = workerKillSize(size.size)
  progress(`killing the job worker ${load.kills} times among ${load.jobs} summary jobs`)
  // The worker entries bundled once, as vitest's global setup does: every restart then loads plain JavaScript.
  const removeWorkers = await buildTestWorkers()
  try {
    const r = await killWorkerUnderLoad({ ...load, onProgress: progress })
    report(r as unknown as Record<string, unknown>, ['jobs_stuck'])
  } finally {
    removeWorkers()
  }
}

if (wanted('import_stall')) {
  const r = await importStall({ ...importStallSize(size.size), progress })
  report(r as unknown as Record<string, unknown>, ['over_budget'])
}

if (wanted('memory_growth')) {
  const turns = memoryGrowthTurns(size.size)
  progress(`host memory over ${turns} chat turns`)
  // rss_over_bound: issue 37's RSS growth ≤ 20 MB over 10,000 turns after warm-up (full size).
  report((await memoryGrowth({ turns })) as unknown as Record<string, unknown>, ['rss_over_bound'])
}

console.log(JSON.stringify({ suite: 'summary', size: size.size, seed: size.seed, failed: failures }))
// Worker threads and sockets of the suites are closed; exit anyway so nothing left over can hold the run open.
process.exit(failures.length > 0 ? 1 : 0)
