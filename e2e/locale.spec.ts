import { expect, test } from './fixtures'

test.use({ locale: 'ja-JP' })

test('a Japanese browser gets the Japanese UI on first launch, with CJK text rendered', async ({ app, page }) => {
  await app.open()
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
  await expect(app.sidebar.getByRole('tab', { name: '会話' })).toHaveAttribute('aria-selected', 'true')
  await app.showWorld()
  await expect(app.sidebar.getByRole('heading', { name: '建物' })).toBeVisible()
  await expect(app.connection).toHaveText('接続済み')
  await expect(app.version).toContainText('ブラウザ')
  // Without CJK fonts the glyphs render as boxes; a rendered heading has real width.
  const width = await app.sidebar
    .getByRole('heading', { name: '建物' })
    .evaluate((el) => el.getBoundingClientRect().width)
  expect(width).toBeGreaterThan(10)
})

test('a new persona in a Japanese window searches memory by words: the built-in sentence model reads English only', async ({
  app,
  page,
}) => {
  await app.open()
  await page.getByRole('button', { name: 'ペルソナ…' }).click()
  const dialog = page.getByRole('dialog', { name: 'ペルソナ' })
  await expect(dialog.getByLabel('記憶の検索').locator('option:checked')).toHaveText('語と綴り（英語は単語の意味も）')
  await expect(dialog.getByTestId('memory-search-hint')).toContainText('どの言語でも')
})
