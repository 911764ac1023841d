// The transcript of a long path: a 2,000-turn chain opened in the built app, scrolled through
// continuously (a fixed distance every animation frame, up from the newest turn and back down),
// with the time between frames recorded meanwhile. Prints one JSON line. Needs a build
// (`npm run build`) and Debian's Chromium; `npm run bench:transcript`.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { serve } from '../../main/host/serve'
import { isoNow } from '../../main/kernel/time'
import { chromiumArgs, executablePath, run, stats } from './frames'

const TURNS = Number(process.env.BENCH_TURNS ?? 2_000)
/** Pixels per frame: a brisk fling, so every frame brings turns into view that were not rendered. */
const STEP_PX = 60
const FRAMES_EACH_WAY = 400

/** Replies as they come: short ones, Markdown lists and code, and now and then a long one. */
function reply(i: number): string {
  if (i % 11 === 5)
    return Array.from(
      { length: 8 },
      (_, p) => `Paragraph ${p} of a long answer (${i}): the temples, the gardens and the river banks.`,
    ).join('\n\n')
  if (i % 5 === 2) return `Here is code for ${i}:\n\n\`\`\`ts\nconst turn = ${i}\nconsole.log(turn * 2)\n\`\`\``
  if (i % 3 === 1) return `Reply ${i}, **in Markdown**:\n\n- one\n- two\n- 三つ目は日本語で`
  return `Reply ${i}. A sentence or two of an answer, as most replies are.`
}

/** Scrolls the transcript by `px` every frame for `frames` frames; resolves with the frame times. */
const SCROLL = `async ([px, frames]) => {
  const el = document.querySelector('[data-testid=transcript]')
  const times = []
  let last = performance.now()
  for (let i = 0; i < frames; i++) {
    await new Promise((r) => requestAnimationFrame(r))
    const now = performance.now()
    times.push(now - last)
    last = now
    el.scrollTop += px
  }
  return times.slice(1)
}`

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-transcript-'))
const serving = await serve({ home, port: 0, staticDir: join(import.meta.dirname, '../../out/renderer') })
const browser = await chromium.launch({ executablePath, args: chromiumArgs })
try {
  const graph = serving.core.graph
  const flow = graph.createFlow({ name: 'long path' })
  const store = graph.store
  const base = Date.parse('2026-01-01T00:00:00Z')
  store.db
    .transaction(() => {
      let parent: string | null = null
      for (let i = 0; i < TURNS; i++) {
        const id = randomUUID()
        store.insertNode({
          id,
          timestamp: isoNow(new Date(base + i * 60_000)),
          prompt: `Turn ${i}: ${i % 2 ? '東京の桜について教えて' : 'What should we talk about next?'}`,
          response: reply(i),
          model: 'bench:model',
        })
        store.addMember(flow.id, id, { x: 0, y: i * 260 })
        if (parent) store.addEdge(flow.id, parent, id)
        parent = id
      }
    })
    .immediate()

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.addInitScript(
    `localStorage.setItem('loomverse.onboardingDismissed', '1'); localStorage.setItem('loomverse.lastFlow', ${JSON.stringify(flow.id)})`,
  )
  await page.goto(serving.host.url)
  await page.locator(`[data-testid=transcript-turn][data-index="${TURNS}"]`).waitFor()

  // The main thread's own work per frame (script, style, layout), which other load on the machine
  // inflates far less than the wall-clock frame times.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const work = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    const of = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0
    return { script: of('ScriptDuration'), style: of('RecalcStyleDuration'), layout: of('LayoutDuration') }
  }
  const before = await work()
  const up = await run<number[]>(page, SCROLL, [-STEP_PX, FRAMES_EACH_WAY])
  const down = await run<number[]>(page, SCROLL, [STEP_PX, FRAMES_EACH_WAY])
  const after = await work()
  const frames = [...up, ...down]
  const perFrame = (key: keyof typeof before) => +(((after[key] - before[key]) * 1000) / frames.length).toFixed(2)
  const s = stats(frames)
  const seconds = frames.reduce((a, b) => a + b, 0) / 1000
  console.log(
    JSON.stringify({
      bench: 'transcript.scroll',
      turns: TURNS,
      px_per_frame: STEP_PX,
      fps: +(frames.length / seconds).toFixed(1),
      frame_median_ms: s.median_ms,
      frame_p95_ms: s.p95_ms,
      frames: s.frames,
      script_ms_per_frame: perFrame('script'),
      style_ms_per_frame: perFrame('style'),
      layout_ms_per_frame: perFrame('layout'),
      target_fps: 50,
    }),
  )
} finally {
  await browser.close()
  await serving.stop()
  rmSync(home, { recursive: true, force: true })
}
