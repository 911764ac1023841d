// Frame timing in a page, shared by the canvas and transcript benches.
import type { Page } from '@playwright/test'

export const executablePath = process.env.LOOMVERSE_CHROMIUM ?? '/usr/bin/chromium'
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
]

export function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (p: number) => +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2)
  return { median_ms: at(0.5), p95_ms: at(0.95), frames: samples.length }
}

// Page scripts are strings: tsx would otherwise wrap named functions in a helper the page lacks.

export const START_FRAMES = `() => {
  window.__frames = []
  window.__stop = false
  let last = performance.now()
  const tick = (now) => {
    window.__frames.push(now - last)
    last = now
    if (!window.__stop) requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}`

export const STOP_FRAMES = `() => { window.__stop = true; return window.__frames.slice(1) }`

export function run<T>(page: Page, script: string, arg?: unknown): Promise<T> {
  return page.evaluate(([body, a]) => (0, eval)(body as string)(a), [script, arg] as const) as Promise<T>
}
