import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { serve } from '../../main/host/serve'
import { generateFlow } from '../graphFixture'
import { chromiumArgs, executablePath } from './frames'
const home = mkdtempSync(join(tmpdir(), 'shots-'))
const serving = await serve({ home, port: 0, staticDir: join(import.meta.dirname, '../../out/renderer') })
const browser = await chromium.launch({ executablePath, args: chromiumArgs })
const big = generateFlow(serving.core.graph, 20000, { name: 'big', positioned: true })
const small = serving.core.graph.createFlow({ name: 'small' })
serving.core.graph.createNode({ flow_id: small.id, prompt: 'hello' })
for (const [theme, language] of [['light', 'en'], ['dark', 'ja']] as const) {
  await serving.core.router.call('update_settings', { theme, language }, { transport: 'ws' })
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.addInitScript(`localStorage.setItem('loomverse.onboardingDismissed', '1'); localStorage.setItem('loomverse.lastFlow', '${small.id}')`)
  await page.goto(serving.host.url)
  await page.locator('.conv-node').first().waitFor()
  await page.evaluate(`location.hash = '#flow=${big.id}'`)
  await page.locator('.canvas-loading').waitFor()
  await page.screenshot({ path: `/tmp/shot-loading-${theme}-${language}.png` })
  // Scroll the transcript up to show turns still loading
  await page.locator('.canvas-loading').waitFor({ state: 'detached', timeout: 120000 })
  await page.mouse.move(900, 400)
  for (let i = 0; i < 30; i++) await page.mouse.wheel(0, -2500)
  await page.screenshot({ path: `/tmp/shot-scrolled-${theme}-${language}.png` })
  await page.close()
}
await browser.close(); await serving.stop()
