import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const repoRoot = resolve(import.meta.dirname, '../..')

/** What bench/graph/hostMemory.ts prints. */
export interface MemoryGrowth {
  suite: 'memory_growth'
  turns: number
  warmup: number
  rss_start_mb: number
  rss_end_mb: number
  rss_growth_mb: number
  heap_growth_mb: number
  db_mb: number
  wal_mb: number
  sent_contexts_mb: number
  /** Issue 37: RSS grows at most 20 MB over 10,000 turns after warm-up (checked at full size only). */
  rss_over_bound: number
}

/** Turns of each size: the full suite runs issue 37's 10,000; the bounded one a few hundred, to see it run. */
export const memoryGrowthTurns = (size: 'bounded' | 'full') => (size === 'full' ? 10_000 : 500)

/**
 * Host memory over a long companion conversation: the bench in a process of its own (a fresh
 * heap, its RSS nobody else's), through the router against the fake LLM, with the job worker.
 */
export async function memoryGrowth(options: { turns: number; timeoutMs?: number }): Promise<MemoryGrowth> {
  const args = [
    '--import',
    pathToFileURL(join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
    join(repoRoot, 'bench/graph/hostMemory.ts'),
    '--turns',
    String(options.turns),
  ]
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'tsconfig.node.json') },
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  const timeoutMs = options.timeoutMs ?? 60_000 + options.turns * 200
  const code = await new Promise<number | null>((done, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`memory_growth: no result in ${timeoutMs / 1000} s\n${err}`))
    }, timeoutMs)
    child.once('exit', (c) => {
      clearTimeout(timer)
      done(c)
    })
  })
  const line = out
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith('{') && l.includes('"graph.host_memory"'))
  if (code !== 0 || !line) throw new Error(`memory_growth: the bench exited ${code}\n${out}\n${err}`)
  const { bench: _bench, ...figures } = JSON.parse(line) as Omit<MemoryGrowth, 'suite' | 'rss_over_bound'> & {
    bench: string
  }
  const full = figures.turns >= 10_000
  return { suite: 'memory_growth', ...figures, rss_over_bound: full && figures.rss_growth_mb > 20 ? 1 : 0 }
}
