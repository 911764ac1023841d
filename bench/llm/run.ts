// bench/llm: what Loomverse adds on top of the provider. Prints one JSON line per figure.
//  1. time to first token through the app (chat_send → first node_stream event, in-process and
//     over the WebSocket) minus the same through the openai SDK directly, against one fake server;
//  2. the renderer's token-to-paint delay while a reply streams at ~2,000 tokens/s in Chromium.
// Needs a build (`npm run build`) and Debian's Chromium for part 2.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import OpenAI from 'openai'
import WebSocket from 'ws'
import { serve } from '../../main/host/serve'
import { startFakeLlm } from '../../tests/support/fakeLlm'

const RUNS = Number(process.env.BENCH_RUNS ?? 200)
const executablePath = process.env.LOOMVERSE_CHROMIUM ?? '/usr/bin/chromium'

function pct(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2)
}

const fake = await startFakeLlm({ keepRequests: false })
const home = mkdtempSync(join(tmpdir(), 'loomverse-bench-llm-'))
const env = {
  OPENAI_BASE_URL: `${fake.url}/v1`,
  OPENAI_API_KEY: 'sk-test',
  LOOMVERSE_DEFAULT_MODEL: 'openai:gpt-4o-mini',
}
Object.assign(process.env, env)
const serving = await serve({ home, port: 0, staticDir: join(import.meta.dirname, '../../out/renderer') })
try {
  // ---- 1. added latency to first token
  const sdk = new OpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1`, maxRetries: 0 })
  const direct: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const stream = await sdk.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    })
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) {
        direct.push(performance.now() - t0)
        break
      }
    }
    stream.controller.abort()
  }

  const { core } = serving
  const flow = core.graph.createFlow({ name: 'bench' })
  const viaBus: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const first = new Promise<number>((resolve) => {
      const stop = core.bus.listen((event) => {
        if (event === 'node_stream') {
          stop()
          resolve(performance.now())
        }
      })
    })
    const t0 = performance.now()
    const r = await core.router.call('chat_send', { flow_id: flow.id, prompt: 'hi' }, { transport: 'internal' })
    if (!r.ok) throw new Error(r.error.message)
    viaBus.push((await first) - t0)
    await new Promise((res) => setTimeout(res, 5)) // let the reply finish before the next
  }

  const ws = new WebSocket(`ws://127.0.0.1:${serving.host.port}/ws?token=${serving.token}`)
  await new Promise((r) => ws.once('open', r))
  ws.send(JSON.stringify({ id: 's', action: 'subscribe', data: { events: ['node_stream'] } }))
  const viaWs: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const first = new Promise<number>((resolve) => {
      const onMessage = (raw: WebSocket.RawData) => {
        if (String(raw).startsWith('{"event":"node_stream"')) {
          ws.off('message', onMessage)
          resolve(performance.now())
        }
      }
      ws.on('message', onMessage)
    })
    ws.send(JSON.stringify({ id: i, action: 'chat_send', data: { flow_id: flow.id, prompt: 'hi' } }))
    viaWs.push((await first) - t0)
    await new Promise((res) => setTimeout(res, 5))
  }
  ws.close()
  console.log(
    JSON.stringify({
      bench: 'llm.first_token',
      runs: RUNS,
      sdk_direct_p50_ms: pct(direct, 0.5),
      sdk_direct_p95_ms: pct(direct, 0.95),
      app_p50_ms: pct(viaBus, 0.5),
      app_p95_ms: pct(viaBus, 0.95),
      app_over_ws_p95_ms: pct(viaWs, 0.95),
      added_p50_ms: +(pct(viaBus, 0.5) - pct(direct, 0.5)).toFixed(2),
      added_p95_ms: +(pct(viaBus, 0.95) - pct(direct, 0.95)).toFixed(2),
      added_over_ws_p95_ms: +(pct(viaWs, 0.95) - pct(direct, 0.95)).toFixed(2),
      target_added_p95_ms: 5,
    }),
  )

  // ---- 2. token-to-paint while streaming at ~2,000 tokens/s
  const tokens = Array.from({ length: 4000 }, (_, i) => `t${i} `)
  const chunks: string[] = []
  for (let i = 0; i < tokens.length; i += 2) chunks.push(tokens[i]! + tokens[i + 1]!) // 2 tokens per 1 ms chunk
  fake.script({ provider: 'openai', reply: chunks.join(''), chunks, chunkDelayMs: 1, times: 1 })
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  // Before the app loads: note when each node_stream message arrives and how long the text is then.
  await page.addInitScript(`(() => {
    const arrivals = []
    window.__arrivals = arrivals
    const Native = window.WebSocket
    window.WebSocket = class extends Native {
      set onmessage(fn) {
        super.onmessage = (e) => {
          const s = String(e.data)
          if (s.startsWith('{"event":"node_stream"')) arrivals.push({ at: performance.now(), len: JSON.parse(s).data.delta.length })
          fn(e)
        }
      }
    }
  })()`)
  await page.goto(serving.host.url)
  await page.getByRole('button', { name: 'New conversation' }).first().click()
  await page.getByLabel('Prompt').fill('stream fast')
  // When the reply's text changes, note the moment after the browser has rendered that frame:
  // the DOM changes in an animation-frame callback, and a zero timeout runs once the frame is painted.
  await page.evaluate(`(() => {
    window.__paints = []
    const observer = new MutationObserver(() => {
      const el = document.querySelector('[data-testid=node-response]')
      // A streaming card shows the newest words only; it carries the full length for us.
      const len = el ? Number(el.dataset.length ?? el.textContent.length) : 0
      setTimeout(() => window.__paints.push({ at: performance.now(), len }), 0)
    })
    observer.observe(document.querySelector('.graph-canvas'), { subtree: true, childList: true, characterData: true })
  })()`)
  await page.keyboard.press('Control+Enter')
  await page.locator('[data-testid=node-response]').filter({ hasText: 't3999' }).waitFor({ timeout: 60_000 })
  const { arrivals, paints } = (await page.evaluate(
    `(() => { window.__stopPaints = true; return { arrivals: window.__arrivals, paints: window.__paints } })()`,
  )) as {
    arrivals: Array<{ at: number; len: number }>
    paints: Array<{ at: number; len: number }>
  }
  // For each arrival, the first painted frame whose text is at least as long as everything received so far.
  // Markdown rendering trims a trailing space, so allow one character of slack.
  const delays: number[] = []
  let received = 0
  let p = 0
  for (const a of arrivals) {
    received += a.len
    while (p < paints.length && (paints[p]!.at < a.at || paints[p]!.len < received - 1)) p++
    if (p < paints.length) delays.push(paints[p]!.at - a.at)
  }
  const seconds = (arrivals.at(-1)!.at - arrivals[0]!.at) / 1000
  console.log(
    JSON.stringify({
      bench: 'llm.token_to_paint',
      tokens: tokens.length,
      stream_tokens_per_s: Math.round(tokens.length / seconds),
      messages: arrivals.length,
      p50_ms: pct(delays, 0.5),
      p95_ms: pct(delays, 0.95),
      target_p95_ms: 20,
    }),
  )
  await browser.close()
} finally {
  await serving.stop()
  await fake.close()
  rmSync(home, { recursive: true, force: true })
}
