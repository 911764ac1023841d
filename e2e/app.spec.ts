import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './fixtures'

test('the token URL loads the app frame, connected, in English', async ({ app, page }) => {
  await app.open()
  await expect(app.header.getByRole('heading', { name: 'Loomverse' })).toBeVisible()
  await expect(app.sidebar.getByRole('tab', { name: 'Conversations' })).toHaveAttribute('aria-selected', 'true')
  await app.showWorld()
  await expect(app.sidebar.getByRole('heading', { name: 'Buildings' })).toBeVisible()
  // First run, no conversation yet: the welcome leads to a persona and a first conversation.
  await expect(app.canvas.getByRole('heading', { name: 'Welcome to Loomverse' })).toBeVisible()
  await expect(app.canvas.getByRole('button', { name: 'New conversation' })).toBeVisible()
  await expect(app.connection).toHaveText('Connected')
  await expect(app.version).toContainText(/browser · schema \d+/)
  // The token leaves the address bar once read, so it does not end up in bookmarks or screenshots.
  expect(new URL(page.url()).searchParams.has('token')).toBe(false)
  await page.reload()
  await expect(app.connection).toHaveText('Connected')
})

test('app_info round-trips over the page WebSocket', async ({ app, server }) => {
  await app.open()
  const reply = await app.rawRequest(server.wsUrl, {
    id: 7,
    action: 'app_info',
    data: {},
  })
  expect(reply).toMatchObject({
    id: 7,
    status: 'success',
    data: { name: 'loomverse', mode: 'browser', home: server.home },
  })
})

test('an invalid request gets bad_input naming the field', async ({ app, server }) => {
  await app.open()
  const reply = await app.rawRequest(server.wsUrl, {
    id: 'x',
    action: 'update_settings',
    data: { theme: 'neon' },
  })
  expect(reply).toMatchObject({ id: 'x', status: 'error', data: null, error: { code: 'bad_input' } })
  expect((reply as { error: { message: string } }).error.message).toMatch(/^update_settings: theme: /)
})

test('a wrong or missing token is refused with 401 and no app', async ({ page, server }) => {
  for (const url of [`${server.origin}/?token=not-the-token`, `${server.origin}/`]) {
    const response = await page.goto(url)
    expect(response?.status()).toBe(401)
    await expect(page.locator('header.app-header')).toHaveCount(0)
  }
})

test('a page from another origin cannot open the WebSocket even with the token', async ({ page, server }) => {
  // A foreign site the user happens to visit: same machine, different origin.
  const foreign = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>elsewhere</title>'),
  )
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
  try {
    await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`)
    const outcome = await page.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url)
          ws.onopen = () => resolve('opened')
          ws.onerror = () => resolve('refused')
        }),
      server.wsUrl,
    )
    // The token is right, so only the Origin check can have refused it.
    expect(outcome).toBe('refused')
  } finally {
    foreign.close()
  }
})

test('theme and language persist and reach a second tab live', async ({ app, context, server }) => {
  await app.open()
  await app.showWorld()
  const second = await context.newPage()
  await second.goto(server.url)
  await expect(second.getByTestId('connection')).toHaveText('Connected')
  await second.getByRole('tab', { name: 'World' }).click()

  await app.settingsButton('Settings').click()
  await app.chooseSetting('Theme', 'dark')
  await expect.poll(() => app.theme()).toBe('dark')
  await app.chooseSetting('Language', 'ja')
  await expect(app.page.getByRole('heading', { name: '建物' })).toBeVisible()

  // The other tab hears settings_updated without reloading.
  await expect(second.getByRole('heading', { name: '建物' })).toBeVisible()
  await expect.poll(() => second.evaluate(() => document.documentElement.dataset.theme)).toBe('dark')

  // And the choice is in loomverse.db, not just in memory.
  await app.page.reload()
  await expect(app.page.getByTestId('connection')).toHaveText('接続済み')
  await expect.poll(() => app.theme()).toBe('dark')
})
