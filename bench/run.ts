// Benchmarks print one JSON line each. Compare ratios within one run, not absolute times
// across machines. Run with `npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import { serve } from '../main/host/serve'
import { startCore } from '../main/core'

const CALLS = 2000

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

function summary(name: string, samples: number[], extra: Record<string, unknown> = {}) {
  const sorted = [...samples].sort((a, b) => a - b)
  const total = samples.reduce((a, b) => a + b, 0)
  return {
    bench: name,
    calls: samples.length,
    p50_ms: +percentile(sorted, 50).toFixed(3),
    p95_ms: +percentile(sorted, 95).toFixed(3),
    per_s: Math.round(samples.length / (total / 1000)),
    ...extra,
  }
}

/** The router alone: validation plus handler, no transport. */
async function routerOnly(home: string) {
  const core = startCore({ home, mode: 'browser', checkOutput: true })
  const samples: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now()
    const r = await core.router.call('update_settings', { theme: i % 2 ? 'dark' : 'light' }, { transport: 'internal' })
    samples.push(performance.now() - t)
    if (!r.ok) throw new Error(r.error.message)
  }
  await core.dispose()
  return summary('router.update_settings', samples)
}

/** One request at a time over the loopback WebSocket, as the renderer makes them. */
async function wsRoundTrip(home: string) {
  const s = await serve({ home, port: 0, staticDir: null })
  const ws = new WebSocket(`ws://127.0.0.1:${s.host.port}/ws?token=${s.token}`)
  await new Promise((resolve) => ws.once('open', resolve))
  const samples: number[] = []
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now()
    await new Promise<void>((resolve) => {
      ws.once('message', () => resolve())
      ws.send(JSON.stringify({ id: i, action: 'app_info', data: {} }))
    })
    samples.push(performance.now() - t)
  }
  ws.close()
  await s.stop()
  return summary('ws.app_info_roundtrip', samples)
}

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-'))
try {
  const router = await routerOnly(join(home, 'a'))
  console.log(JSON.stringify(router))
  const ws = await wsRoundTrip(join(home, 'b'))
  console.log(JSON.stringify({ ...ws, vs_router_p50: +(ws.p50_ms / router.p50_ms).toFixed(1) }))
} finally {
  rmSync(home, { recursive: true, force: true })
}
