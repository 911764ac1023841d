#!/usr/bin/env node
// `npm test`: typecheck (node + web), lint, unit/integration tests (vitest), e2e (Playwright
// in Debian's Chromium). Every step runs even after a failure so one run shows everything;
// the last line is the plain `N passed, N failed, N skipped` CI reads.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Each run its own report folder, so two runs side by side (two checkouts) never read each other's.
const reports = mkdtempSync(join(tmpdir(), 'loomverse-test-'))
process.on('exit', () => rmSync(reports, { recursive: true, force: true }))
const unitReport = join(reports, 'unit.json')
const e2eReport = join(reports, 'e2e.json')
const bin = (name) => join('node_modules', '.bin', name)

const steps = [
  { name: 'typecheck (node)', cmd: [bin('tsc'), '-p', 'tsconfig.node.json'] },
  { name: 'typecheck (web)', cmd: [bin('tsc'), '-p', 'tsconfig.web.json'] },
  { name: 'typecheck (e2e)', cmd: [bin('tsc'), '-p', 'tsconfig.e2e.json'] },
  { name: 'lint', cmd: [bin('eslint'), '.', '--max-warnings', '0'] },
  {
    name: 'unit',
    cmd: [bin('vitest'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`],
  },
  {
    name: 'e2e',
    cmd: [bin('playwright'), 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
  },
]

const failedSteps = []
for (const step of steps) {
  console.log(`\n▶ ${step.name}`)
  const started = Date.now()
  const run = spawnSync(step.cmd[0], step.cmd.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
    shell: process.platform === 'win32',
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (run.status === 0) console.log(`✔ ${step.name} (${seconds} s)`)
  else {
    console.log(`✘ ${step.name} failed (${seconds} s)`)
    failedSteps.push(step.name)
  }
}

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null)
const unit = read(unitReport)
const e2e = read(e2eReport)
const passed = (unit?.numPassedTests ?? 0) + (e2e ? e2e.stats.expected + e2e.stats.flaky : 0)
const failedTests = (unit?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0)
const skipped = (unit ? unit.numPendingTests + unit.numTodoTests : 0) + (e2e?.stats.skipped ?? 0)
// A step that failed without a failing test (a type error, a lint error, a runner that
// crashed) still counts as one failure, so the closing line can never read "0 failed" then.
const stepFailuresWithoutTests = failedSteps.filter(
  (s) => !(s === 'unit' && (unit?.numFailedTests ?? 0) > 0) && !(s === 'e2e' && (e2e?.stats.unexpected ?? 0) > 0),
).length
const failed = failedTests + stepFailuresWithoutTests

if (failedSteps.length > 0) console.log(`\nFailed steps: ${failedSteps.join(', ')}`)
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0)
