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
