// bench/graph: how the canvas copes with a 10k-node flow, and how fast the text format is.
// Prints one JSON line per figure. Needs a build (`npm run build`) and Debian's Chromium.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { startCore } from '../../main/core'
import { serve } from '../../main/host/serve'
import { exportVizprompt, importVizprompt } from '../../main/interop/vizprompt'
import { generateFlow } from '../graphFixture'
import { START_FRAMES, STOP_FRAMES, chromiumArgs, executablePath, run, stats } from './frames'

/** Flow sizes, measured one after another in this run (`BENCH_NODES=10000,50000`): their ratios are the figures to compare. */
const SIZES = (process.env.BENCH_NODES ?? '10000').split(',').map(Number)
/**
 * Opens per size; the median is the figure. Nine, not five: an open takes ~100 ms, and on a busy
 * machine one collection or slow frame in a few moved the 50k/10k ratio from 1.3 to 2.1 between runs.
 */
const OPENS = 9

/** Opens a flow by its link (as a pasted link or the conversation list does) and resolves with the ms until its node cards are painted. */
const OPEN_FLOW = `async ([id, nodeId]) => {
  const t0 = performance.now()
  location.hash = '#flow=' + id
  const frame = () => new Promise((r) => requestAnimationFrame(r))
  for (;;) {
    await frame()
    // The flow opens centred on its newest node: done when that card is on screen with its text.
    const card = document.querySelector('.conv-node:not(.loading)[data-node-id="' + nodeId + '"]')
    if (card && card.offsetHeight > 0) break
    if (performance.now() - t0 > 60000) throw new Error('flow did not render in 60 s')
  }
  await frame()
  return performance.now() - t0
}`

async function timeOpen(page: Page, flow: { id: string; nodeIds: string[] }): Promise<number> {
  return run<number>(page, OPEN_FLOW, [flow.id, flow.nodeIds.at(-1)])
}

/** Waits until a big flow's rest has come in after its first part (the canvas says so meanwhile): the ms since it was shown. */
async function timeWhole(page: Page): Promise<number> {
  const t0 = performance.now()
  await page.locator('.canvas-loading').waitFor({ state: 'detached', timeout: 120_000 })
  return performance.now() - t0
}

/** A card wholly inside the canvas (the first in the page may lie under the header or a panel). */
async function cardInView(
  page: Page,
): Promise<{ id: string; box: { x: number; y: number; width: number; height: number } }> {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!
  for (const card of await page.locator('.conv-node').all()) {
    const box = await card.boundingBox()
    if (!box || box.x < pane.x || box.y < pane.y) continue
    if (box.x + box.width > pane.x + pane.width - 200 || box.y + 60 > pane.y + pane.height - 200) continue
    return { id: (await card.getAttribute('data-node-id'))!, box }
  }
  throw new Error('no card wholly in view to drag')
}

/** Drags the canvas around and records the time between animation frames meanwhile. */
async function panFrames(page: Page): Promise<number[]> {
  const pane = (await page.locator('.react-flow__pane').boundingBox())!
  await run(page, START_FRAMES)
  // Grab the canvas where no card is (the flow opens centred on a card) and drag it around.
  const cx = pane.x + 40
  const cy = pane.y + pane.height - 140
  for (let round = 0; round < 4; round++) {
    await page.mouse.move(cx, cy)
    await page.mouse.down()
    for (let i = 1; i <= 30; i++) await page.mouse.move(cx + (round % 2 ? 0 : 1) * i * 8, cy - i * 12)
    await page.mouse.up()
  }
  return run<number[]>(page, STOP_FRAMES)
}

const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-graph-'))
const serving = await serve({ home, port: 0, staticDir: join(import.meta.dirname, '../../out/renderer') })
const browser = await chromium.launch({ executablePath, args: chromiumArgs })
try {
  const graph = serving.core.graph
  const smallFlow = graph.createFlow({ name: 'small' })
  const small = { id: smallFlow.id, nodeIds: [graph.createNode({ flow_id: smallFlow.id, prompt: 'hello' }).id] }

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  if (process.env.BENCH_DEBUG) page.on('console', (m) => console.error('page:', m.text()))
  // No AI provider here: keep the first-run onboarding dialog from covering the canvas; and the
  // canvas alone, as these figures were taken before the transcript came beside it.
  await page.addInitScript(
    `localStorage.setItem('loomverse.onboardingDismissed', '1'); localStorage.setItem('loomverse.readingLayout', 'graph')`,
  )
  await page.goto(serving.host.url)
  await page.locator('.conv-node').first().waitFor()

  const bySize: Array<{ nodes: number; open: number; drag: number; pan: number; perNode: number }> = []
  for (const [n, NODES] of SIZES.entries()) {
    const t0 = performance.now()
    const big = generateFlow(graph, NODES, { name: `bench ${NODES}`, positioned: true })
    const seedMs = performance.now() - t0
    // Opened several times (from another flow each time, which also stops the reading of the
    // rest): a figure of a few hundred ms on a busy machine is mostly noise once.
    const opens: number[] = []
    for (let i = 0; i < OPENS; i++) {
      await timeOpen(page, small)
      opens.push(await timeOpen(page, big))
    }
    const loadMs = opens.sort((a, b) => a - b)[Math.floor(OPENS / 2)]!
    // Dragging and panning are measured on the flow whole, once its rest has come in.
    const restMs = await timeWhole(page)
    console.log(
      JSON.stringify({
        bench: 'graph.load_flow',
        nodes: NODES,
        ms: +loadMs.toFixed(1),
        opens_ms: opens.map((o) => Math.round(o)),
        rest_ms: Math.round(restMs),
        target_ms: 1000,
        seed_ms: Math.round(seedMs),
      }),
    )

    // Dragging a card that is on screen to a new place.
    const { id: dragged, box: card } = await cardInView(page)
    await run(page, START_FRAMES)
    await page.mouse.move(card.x + card.width / 2, card.y + 20)
    await page.mouse.down()
    for (let i = 1; i <= 60; i++) await page.mouse.move(card.x + card.width / 2 + i * 4, card.y + 20 + i * 2)
    await page.mouse.up()
    const dragFrames = await run<number[]>(page, STOP_FRAMES)
    const moved = (await page.locator(`.conv-node[data-node-id="${dragged}"]`).boundingBox())!
    if (Math.abs(moved.x - card.x) < 100) throw new Error('the card did not move: the drag measured nothing')
    const drag = stats(dragFrames)
    console.log(JSON.stringify({ bench: 'graph.drag_card_frame_time', nodes: NODES, ...drag }))

    const pan = stats(await panFrames(page))
    console.log(JSON.stringify({ bench: 'graph.pan_frame_time', nodes: NODES, ...pan, target_p95_ms: 20 }))

    if (n === 0) {
      // The automatic layout, once: a flow never placed opens whole and is laid out in a worker.
      const unplaced = generateFlow(graph, NODES, { name: `bench ${NODES} unplaced`, positioned: false })
      await timeOpen(page, small)
      const unplacedMs = await timeOpen(page, unplaced)
      console.log(
        JSON.stringify({
          bench: 'graph.load_flow_without_positions',
          nodes: NODES,
          ms: +unplacedMs.toFixed(1),
          note: 'automatic layout in a worker',
        }),
      )
    }

    // The VizPrompt text format: export the flow, import it into an empty data folder.
    // Once in the data folder's file system, and once in memory (tmpfs) where the machine has one:
    // creating 10k files costs what the file system makes it cost, and the two lines tell that
    // apart from what our code costs. In the data folder twice, the faster the figure: one run of
    // a few seconds on a busy machine moves the per-node ratio by a tenth either way.
    const places = [{ fs: 'data folder', dir: home }, { fs: 'data folder', dir: home }]
    if (existsSync('/dev/shm')) places.push({ fs: 'tmpfs', dir: mkdtempSync(join('/dev/shm', 'loomverse-bench-')) })
    let perNode = Infinity
    for (const [attempt, place] of places.entries()) {
      const out = join(place.dir, `export-${NODES}`)
      const e0 = performance.now()
      await exportVizprompt(serving.core, { outDir: out, flowIds: [big.id] })
      const exportMs = performance.now() - e0
      const fresh = startCore({ home: join(place.dir, `fresh-${NODES}-${attempt}`), mode: 'browser' })
      const i0 = performance.now()
      const imported = await importVizprompt(fresh, out)
      const importMs = performance.now() - i0
      await fresh.dispose()
      rmSync(out, { recursive: true, force: true })
      if (place.dir !== home) rmSync(place.dir, { recursive: true, force: true })
      if (place.fs === 'data folder') perNode = Math.min(perNode, (exportMs + importMs) / imported.nodes)
      console.log(
        JSON.stringify({
          bench: 'graph.vizprompt_export_import',
          fs: place.fs,
          nodes: imported.nodes,
          export_ms: Math.round(exportMs),
          import_ms: Math.round(importMs),
          total_ms: Math.round(exportMs + importMs),
          target_total_ms: 2000,
        }),
      )
    }
    bySize.push({ nodes: NODES, open: loadMs, drag: drag.p95_ms, pan: pan.p95_ms, perNode })
  }
  // What the bounds compare, within this run: the largest size against the smallest.
  if (bySize.length > 1) {
    const [a, b] = [bySize[0]!, bySize.at(-1)!]
    console.log(
      JSON.stringify({
        bench: 'graph.scale',
        nodes: [a.nodes, b.nodes],
        open_ratio: +(b.open / a.open).toFixed(2),
        drag_over_pan_p95: +(b.drag / b.pan).toFixed(2),
        vizprompt_per_node_ratio: +(b.perNode / a.perNode).toFixed(2),
      }),
    )
  }
} finally {
  await browser.close()
  await serving.stop()
  rmSync(home, { recursive: true, force: true })
}
