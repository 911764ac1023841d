import { expect, test } from './fixtures'
import { expectAccessible } from './pages/accessible'
import { MemoryPage } from './pages/memory.page'
import { openPersonas } from './pages/persona.steps'

// axe-core over the main screens, in both themes: no serious or critical violation.

test.use({ viewport: { width: 1280, height: 800 } })

for (const theme of ['light', 'dark'] as const) {
  test(`the main screens have no serious or critical accessibility violation (${theme})`, async ({
    app,
    graph,
    page,
  }) => {
    await app.open()
    if (theme === 'dark') {
      await app.settingsButton('Settings').click()
      await app.chooseSetting('Theme', 'dark')
      await page.keyboard.press('Escape')
    }
    await expect.poll(() => app.theme()).toBe(theme)
    await expectAccessible(page, 'first run')

    await graph.startConversation('Where should I walk today?')
    await expect(graph.card(1).getByTestId('node-response')).toContainText('echo')
    await expectAccessible(page, 'graph')

    await app.settingsButton('Settings').click()
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
    await expectAccessible(page, 'settings')
    await page.keyboard.press('Escape')

    await page.keyboard.press('Control+k')
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible()
    await expectAccessible(page, 'command palette')
    await page.keyboard.press('Escape')

    const memory = new MemoryPage(page)
    await memory.open()
    await expectAccessible(page, 'memory')

    await app.header.getByRole('button', { name: 'Search', exact: true }).click()
    await expectAccessible(page, 'search')

    const personas = await openPersonas(page)
    await expect(personas).toBeVisible()
    await expectAccessible(page, 'personas dialog')
    await personas.getByRole('button', { name: 'Close' }).click()

    await page.getByTestId('header-more').click()
    await page.getByRole('menuitem', { name: 'Lorebooks and Author’s Note' }).click()
    const books = page.getByRole('dialog', { name: 'Lorebooks' })
    await books.getByRole('button', { name: '+ New lorebook' }).click()
    await books.getByRole('button', { name: '+ New entry' }).click()
    await books.getByText('Book settings').click()
    await books.getByText('Advanced').click()
    await expect(books.getByLabel('Sticky (turns)')).toBeVisible()
    await expectAccessible(page, 'lorebooks dialog')
    await books.getByRole('button', { name: 'Close' }).last().click()

    await page.getByRole('button', { name: 'Stories' }).click()
    const picker = page.getByRole('dialog', { name: 'Stories' })
    await expectAccessible(page, 'stories dialog')
    await picker.getByLabel('Name').fill('Harbour')
    await picker.getByRole('button', { name: 'Create story' }).click()
    await expect(page.getByRole('region', { name: 'Story Harbour' })).toBeVisible()
    await expectAccessible(page, 'story')
  })
}
