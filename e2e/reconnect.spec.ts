import { AppPage } from './pages/app.page'
import { expect, llmEnv, startServer, test } from './fixtures'

test('the page survives a host restart: it shows the lost link, reconnects and hears events again', async ({
  page,
  llm,
}) => {
  const token = 'restart-test-token-0123456789abcdef'
  let server = await startServer({ token, env: llmEnv(llm) })
  const app = new AppPage(page, server.url)
  try {
    await app.open()
    await app.showWorld()
    await server.stop({ keepHome: true })
    await expect(app.connection).toHaveText('Connection lost, reconnecting…')

    server = await startServer({ home: server.home, port: server.port, token, env: llmEnv(llm) })
    await expect(app.connection).toHaveText('Connected', { timeout: 15_000 })

    // Subscriptions were renewed: a change made by another client reaches this page.
    const other = await page.context().newPage()
    await other.goto(server.url)
    await other.getByRole('button', { name: 'Settings' }).click()
    await other.getByRole('dialog').getByLabel('Language').selectOption('ja')
    await expect(app.sidebar.getByRole('heading', { name: '建物' })).toBeVisible()
  } finally {
    await server.stop()
  }
})

test('a reload after a host restart reconnects with the kept token; a renewed token sends other browsers to a page saying where the address is', async ({
  browser,
  page,
  llm,
}) => {
  let server = await startServer({ env: llmEnv(llm) })
  const first = server.token
  const app = new AppPage(page, server.url)
  const elsewhere = await browser.newContext() // another browser: its own cookies
  try {
    await app.open()
    await server.stop({ keepHome: true })
    await expect(app.connection).toHaveText('Connection lost, reconnecting…')
    // Started again as a user would, with no --token: the kept one.
    server = await startServer({ home: server.home, port: server.port, env: llmEnv(llm) })
    expect(server.token).toBe(first)
    await expect(app.connection).toHaveText('Connected', { timeout: 15_000 })
    await page.reload()
    await expect(app.connection).toHaveText('Connected')

    const away = new AppPage(await elsewhere.newPage(), server.url)
    await away.open()
    // A tab of this browser asks for a new token: it reopens with it, and so does every tab of this browser.
    const other = await page.context().newPage()
    const otherApp = new AppPage(other, server.url)
    await otherApp.open()
    await other.getByRole('button', { name: 'Settings' }).click()
    // The tab reopens at the new address, whose answer sets this browser's cookie: wait for that
    // page load itself (the address bar and the connection looked the same before it).
    const reopened = other.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).searchParams.has('token'))
    await other.getByRole('button', { name: 'New browser token' }).click()
    await (await reopened).response()
    await expect(other).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/(#.*)?$/) // the token is out of the address again
    await expect(otherApp.connection).toHaveText('Connected')
    // The first tab was cut off with the old token and went on with the browser's new cookie.
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('loomverse.token'))).toBeNull()
    await expect(app.connection).toHaveText('Connected', { timeout: 15_000 })
    await page.reload()
    await expect(app.connection).toHaveText('Connected')

    // The other browser holds the old token: told so, and a reload explains where the address is.
    await expect(away.connection).toHaveText(
      'This tab’s address is out of date: reload to see how to get the current one',
      { timeout: 15_000 },
    )
    await away.page.reload()
    await expect(away.page.getByRole('heading', { name: 'This Loomverse address is out of date' })).toBeVisible()
    await expect(away.page.getByText('npx loomverse token')).toBeVisible()
  } finally {
    await elsewhere.close()
    await server.stop()
  }
})
