// Vitest's global setup: bundle the worker entries once per run, so a test that starts a job or
// memory worker loads plain JavaScript instead of compiling TypeScript inside every thread (which
// took seconds per worker on a busy 2-core machine). sourceWorker() picks these up.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

export const builtWorkersVariable = 'LOOMVERSE_TEST_WORKERS'

const repoRoot = resolve(import.meta.dirname, '../..')

export default async function buildTestWorkers(): Promise<() => void> {
  // Inside the repository's node_modules, so the bundles' bare imports (better-sqlite3,
  // sqlite-vec…) resolve exactly as the sources' do; a folder per run keeps parallel runs apart.
  const cache = join(repoRoot, 'node_modules', '.cache')
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'loomverse-test-workers-'))
  await build({
    entryPoints: {
      jobWorker: join(repoRoot, 'main/workers/jobWorker.ts'),
      memoryWorker: join(repoRoot, 'main/workers/memoryWorker.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    tsconfig: join(repoRoot, 'tsconfig.node.json'),
    logLevel: 'warning',
  })
  // Test files run in processes forked after this, which inherit the environment.
  process.env[builtWorkersVariable] = dir
  return () => rmSync(dir, { recursive: true, force: true })
}
