import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'

// The app shell as a user meets it at 1280x800: a one-row top bar, the command palette on
// Ctrl+K running a command, and the shortcuts list on Ctrl+/.

test.use({ viewport: { width: 1280, height: 800 } })

/** Every control of the header lies inside the header's one row, nothing clipped or overlapping. */
async function expectOneRow(page: Page, header: Locator): Promise<void> {
  const bar = (await header.boundingBox())!
  expect(bar.height).toBeLessThanOrEqual(56)
  const boxes = await header
    .locator('button:visible, select:visible, h1')
    .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))
  const viewport = page.viewportSize()!
  for (const box of boxes) {
    expect(box.top).toBeGreaterThanOrEqual(bar.y)
    expect(box.bottom).toBeLessThanOrEqual(bar.y + bar.height)
    expect(box.right).toBeLessThanOrEqual(viewport.width)
  }
  const sorted = boxes.sort((a, b) => a.left - b.left)
  for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.left).toBeGreaterThanOrEqual(sorted[i - 1]!.right - 0.5)
}

test('the top bar is one row at 1280x800, with a story open too', async ({ app, page }) => {
  await app.open()
  await expectOneRow(page, app.header)

  await page.getByRole('button', { name: 'Stories' }).click()
  const picker = page.getByRole('dialog', { name: 'Stories' })
  await picker.getByLabel('Name').fill('The long road to the northern lighthouse')
  await picker.getByRole('button', { name: 'Create story' }).click()
  await expect(page.getByRole('button', { name: 'Story: The long road to the northern lighthouse' })).toBeVisible()
  await expectOneRow(page, app.header)
})

test('Ctrl+K opens the palette; typing filters the commands and Enter runs one', async ({ app, page }) => {
  await app.open()
  expect(await app.theme()).toBe('light')
  await app.canvas.click({ position: { x: 400, y: 300 } })

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const input = palette.getByRole('combobox', { name: 'Command palette' })
  await expect(input).toBeFocused()
  await input.fill('theme dark')
  const options = palette.getByRole('listbox').getByRole('option')
  await expect(options.first()).toHaveText('Theme: dark')
  await expect(options.first()).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  await expect.poll(() => app.theme()).toBe('dark')

  // From the composer too, and the arrows choose: Settings opens its panel.
  await page.keyboard.press('Control+k')
  await input.fill('settings')
  await expect(options).toHaveText(['Settings'])
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
  await page.keyboard.press('Escape')

  // Nothing matching says so; Escape closes and leaves everything as it was.
  await page.keyboard.press('Control+k')
  await input.fill('qqqzz')
  await expect(options).toHaveCount(0)
  await expect(palette.getByRole('status')).toHaveText('Nothing matches “qqqzz”.')
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
  expect(await app.theme()).toBe('dark')
})

test('the palette switches conversations by name', async ({ app, graph, page }) => {
  await app.open()
  await graph.startConversation('first question about tea')
  await graph.newFlow()

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await palette.getByRole('combobox').fill('switch conv')
  await page.keyboard.press('Enter')
  const conversations = page.getByRole('dialog', { name: 'Switch conversation' })
  await expect(conversations.getByRole('option')).toHaveCount(2)
  await expect(conversations.getByRole('option', { name: /1 turn/ })).toBeVisible()
  await conversations.getByRole('combobox').press('ArrowDown')
  await conversations.getByRole('option', { name: /1 turn/ }).click()
  await expect(conversations).toHaveCount(0)
  await expect(graph.card(1).getByTestId('node-prompt')).toHaveText('first question about tea')
})

test('Ctrl+/ lists the shortcuts, from anywhere, and the palette offers it too', async ({ app, page }) => {
  await app.open()
  // The app has read its conversations (none yet) and shows what comes first.
  await expect(page.getByRole('heading', { name: 'Welcome to Loomverse' })).toBeVisible()
  await page.keyboard.press('Control+/')
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(list.getByRole('row', { name: /Command palette/ })).toContainText('Ctrl+K')
  await expect(list.getByRole('row', { name: /Undo/ })).toContainText('Ctrl+Z')
  await page.keyboard.press('Escape')
  await expect(list).toHaveCount(0)

  await page.keyboard.press('Control+k')
  await page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox').fill('shortcuts')
  await page.keyboard.press('Enter')
  await expect(list).toBeVisible()
})

test('the More menu works from the keyboard and gives the focus back', async ({ app, page }) => {
  await app.open()
  const more = app.header.getByRole('button', { name: 'More' })
  await more.focus()
  await page.keyboard.press('ArrowDown')
  const menu = page.getByRole('menu', { name: 'More' })
  await expect(menu.getByRole('menuitem').first()).toBeFocused()
  await page.keyboard.press('End')
  await expect(menu.getByRole('menuitem', { name: /Command palette/ })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(more).toBeFocused()

  await page.keyboard.press('Enter')
  await menu.getByRole('menuitem', { name: 'Keyboard shortcuts' }).press('Enter')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
})

test('dialogs stack: the palette over a dialog closes alone, and a closed dialog gives the focus back', async ({
  app,
  page,
}) => {
  await app.open()
  const personasButton = app.header.getByRole('button', { name: 'Personas…' })
  await personasButton.click()
  const personas = page.getByRole('dialog', { name: 'Personas' })
  await expect(personas.locator(':focus')).toHaveCount(1)

  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const input = palette.getByRole('combobox')
  await expect(input).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(personas.locator(':focus')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
  await expect(personas).toBeVisible()

  // Tab goes round inside the dialog, never out to the page behind it.
  await personas.getByRole('button', { name: 'Close' }).focus()
  await page.keyboard.press('Tab')
  await expect(personas.locator(':focus')).toHaveCount(1)
  await page.keyboard.press('Escape')
  await expect(personas).toHaveCount(0)
  await expect(personasButton).toBeFocused()
})

test('first run: the welcome leads to making a persona and opening a first conversation with it', async ({
  app,
  page,
}) => {
  await app.open()
  const welcome = app.canvas.getByTestId('welcome')
  await expect(welcome.getByRole('heading', { name: 'Welcome to Loomverse' })).toBeVisible()
  await welcome.getByRole('button', { name: 'Make a persona…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Personas' })
  await dialog.getByLabel('Name').fill('Mio')
  await dialog.getByLabel('Chat', { exact: true }).fill('openai:gpt-4o')
  await dialog.getByRole('button', { name: 'Create persona' }).click()
  await expect(dialog.getByRole('button', { name: 'Mio' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The persona just made is chosen; the second step names who the conversation starts with.
  await expect(welcome.getByRole('button', { name: 'Mio' })).toHaveAttribute('aria-pressed', 'true')
  await expect(welcome).toContainText('It starts with Mio.')
  await welcome.getByRole('button', { name: 'New conversation' }).click()
  await expect(page.getByLabel('Prompt')).toBeVisible()
  await expect(welcome).toHaveCount(0)
  await expect(app.header.getByLabel('Persona', { exact: true }).locator('option:checked')).toHaveText('Mio')
})
