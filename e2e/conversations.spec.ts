import AxeBuilder from '@axe-core/playwright'
import { expect, test } from './fixtures'
import { ConversationsPage } from './pages/conversations.page'

test('the conversation list: named by the first prompt, renamed, pinned first, filtered, deleted and brought back, switched by a click', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  const list = new ConversationsPage(page)
  await expect(page.getByRole('tab', { name: 'Conversations' })).toHaveAttribute('aria-selected', 'true')
  await expect(list.list).toContainText('No conversations yet')

  // Two conversations; each is called "New conversation" until its first prompt names it.
  await graph.newFlow()
  await expect(list.current.locator('.conv-name')).toHaveText('New conversation')
  await graph.send('Plan a weekend in Kyoto with temples and gardens\nWe arrive on Friday.')
  await expect(list.current.locator('.conv-name')).toHaveText('Plan a weekend in Kyoto with temples…')
  await graph.newFlow()
  await graph.send('Tax questions for 2026')
  await expect(list.names()).toHaveText(['Tax questions for 2026', 'Plan a weekend in Kyoto with temples…'])
  await expect(list.current.locator('.conv-name')).toHaveText('Tax questions for 2026')
  await expect(list.row('Tax questions for 2026')).toContainText('1 turn')
  await expect(list.row('Tax questions for 2026').locator('time')).toHaveText('now')

  // Rename inline: Escape leaves the name as it was, Enter keeps the new one, and a later
  // prompt does not name it again.
  await list.action('Tax questions for 2026', 'Rename')
  const field = list.list.getByLabel('New name for “Tax questions for 2026”')
  await field.fill('Something else')
  await field.press('Escape')
  await expect(list.row('Tax questions for 2026')).toBeVisible()
  await list.rename('Tax questions for 2026', 'Taxes')
  await graph.send('And deductions?')
  await expect(list.names()).toHaveText(['Taxes', 'Plan a weekend in Kyoto with temples…'])

  // Pinning moves the older conversation to the top.
  await list.action('Plan a weekend in Kyoto with temples…', 'Pin to the top')
  await expect(list.names()).toHaveText(['Plan a weekend in Kyoto with temples…', 'Taxes'])
  await expect(list.row('Plan a weekend in Kyoto with temples…').getByLabel('Pinned')).toBeVisible()

  // The filter keeps the rows whose name matches; clearing it brings the others back.
  await list.filter.fill('tax')
  await expect(list.names()).toHaveText(['Taxes'])
  await list.filter.fill('nothing like it')
  await expect(list.list).toContainText('No conversation matches “nothing like it”.')
  await list.list.getByRole('button', { name: 'Clear the filter' }).click()
  await expect(list.names()).toHaveCount(2)

  // A click on a row opens that conversation.
  await list.open('Plan a weekend in Kyoto with temples…')
  await expect(page.locator('.conv-node [data-testid=node-prompt]')).toHaveText([
    'Plan a weekend in Kyoto with temples and gardens\nWe arrive on Friday.',
  ])

  // Deleting the open one opens the next; Undo brings it back whole, pinned and open.
  await list.action('Plan a weekend in Kyoto with temples…', 'Delete')
  await expect(list.names()).toHaveText(['Taxes'])
  await expect(list.current.locator('.conv-name')).toHaveText('Taxes')
  const toast = page.locator('.toast').filter({ hasText: 'Deleted “Plan a weekend in Kyoto with temples…”.' })
  await toast.getByRole('button', { name: 'Undo' }).click()
  await expect(list.names()).toHaveText(['Plan a weekend in Kyoto with temples…', 'Taxes'])
  await expect(list.current.locator('.conv-name')).toHaveText('Plan a weekend in Kyoto with temples…')
  await expect(page.locator('.conv-node')).toHaveCount(1)

  // What the user chose outlives a reload.
  await page.reload()
  await expect(list.names()).toHaveText(['Plan a weekend in Kyoto with temples…', 'Taxes'])
  await expect(list.row('Taxes')).toContainText('2 turns')
})

test('the sidebar’s tabs work from the keyboard, and rows are walked with the arrow keys', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  const list = new ConversationsPage(page)
  await graph.startConversation('first conversation')
  await graph.startConversation('second conversation')

  await page.getByRole('tab', { name: 'Conversations' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('tab', { name: 'World' })).toBeFocused()
  await expect(page.getByRole('tab', { name: 'World' })).toHaveAttribute('aria-selected', 'true')
  await expect(app.sidebar.getByRole('heading', { name: 'Buildings' })).toBeVisible()
  await expect(list.list).toBeHidden()
  await page.keyboard.press('ArrowLeft')
  await expect(list.list).toBeVisible()

  // Down moves to the next row; Enter opens it; F2 renames it.
  await list.row('second conversation').locator('.conv-row-open').focus()
  await page.keyboard.press('ArrowDown')
  await expect(list.row('first conversation').locator('.conv-row-open')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(list.current.locator('.conv-name')).toHaveText('first conversation')
  await page.keyboard.press('F2')
  await page.keyboard.type('Renamed by keyboard')
  await page.keyboard.press('Enter')
  await expect(list.row('Renamed by keyboard').locator('.conv-row-open')).toBeFocused()
})

test('a thousand conversations: only the rows on screen are drawn, the far end is reached by keyboard and the filter finds one', async ({
  app,
  page,
  graph,
}) => {
  // Made over one socket from the app's own page (a page without the token is the stale-token
  // page, whose policy allows no connection at all), then the app is loaded again to list them.
  await app.open()
  const names = Array.from({ length: 1000 }, (_, i) => ({ name: `Bulk ${String(i).padStart(4, '0')}` }))
  const made = await graph.requestMany('create_flow', names)
  expect(made).toBe(1000)

  await page.reload()
  const list = new ConversationsPage(page)
  const rows = list.list.locator('li[data-flow-id]')
  await expect(rows.first()).toHaveAttribute('aria-setsize', '1000')
  expect(await rows.count()).toBeLessThan(60)

  // End walks to the last of the thousand, which is drawn when it is reached; Enter opens it.
  const last = list.list.locator('li[data-index="999"]')
  await rows.first().locator('.conv-row-open').focus()
  await page.keyboard.press('End')
  await expect(last.locator('.conv-row-open')).toBeFocused()
  const name = (await last.locator('.conv-name').textContent())!
  await page.keyboard.press('Enter')
  await expect(list.current.locator('.conv-name')).toHaveText(name)
  expect(await rows.count()).toBeLessThan(60)

  await list.filter.fill('bulk 0500')
  await expect(list.names()).toHaveText(['Bulk 0500'])
})

test('the sidebar has no serious or critical accessibility violation, in the light and the dark theme', async ({
  app,
  page,
  graph,
}) => {
  await app.open()
  const list = new ConversationsPage(page)
  await graph.startConversation('hello there')
  await list.action('hello there', 'Pin to the top')
  for (const theme of ['Light', 'Dark']) {
    await app.settingsButton('Settings').click()
    await app.chooseSetting('Theme', theme.toLowerCase())
    await expect.poll(() => app.theme()).toBe(theme.toLowerCase())
    await app.settingsButton('Settings').click()
    // The open row, pointed at: its tint, the muted text on it and its actions.
    await list.row('hello there').hover()
    const { violations } = await new AxeBuilder({ page }).include('aside.app-sidebar').analyze()
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${theme}: ${v.id}`),
    ).toEqual([])
  }
})
