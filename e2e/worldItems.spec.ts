import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { WorldPage } from './pages/world.page'

test('the user makes an object and a document from the sidebar, carries one to the museum, and deletes one only after confirming', async ({
  app,
  page,
  server,
}) => {
  await app.open()
  const world = new WorldPage(page)
  await world.show()
  const toast = (text: string) => page.locator('.toast').filter({ hasText: text })
  await expect(world.building('Library')).toHaveAttribute('aria-current', 'location')

  await world.createItem({ type: 'Object', name: '地球儀', description: '色あせた古い地球儀。' })
  await expect(toast('Item created: 地球儀')).toBeVisible()
  await expect(world.item('地球儀')).toContainText('色あせた古い地球儀。')
  await expect(world.item('地球儀')).toHaveAttribute('data-item-type', 'object')
  await world.createItem({
    type: 'Document',
    name: '読書メモ',
    description: '読んだ本のメモ',
    text: '一冊目: 銀河鉄道の夜',
  })
  await expect(world.item('読書メモ')).toHaveAttribute('data-item-type', 'document')

  // Moving: the item leaves this building's list and waits in the museum.
  let dialog = await world.open('読書メモ')
  await expect(dialog.getByTestId('document-text')).toHaveText('一冊目: 銀河鉄道の夜')
  await world.moveTo(dialog, 'Museum')
  await expect(toast('Moved “読書メモ” to Museum.')).toBeVisible()
  await expect(world.item('読書メモ')).toHaveCount(0)
  await world.goTo('Museum')
  await expect(world.item('読書メモ')).toBeVisible()
  // Following the item does not reopen its closed dialog.
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // Deleting asks first: Cancel keeps the item.
  await world.goTo('Library')
  dialog = await world.open('地球儀')
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete “地球儀”?' })
  await expect(confirm).toContainText('trash folder')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(dialog).toBeVisible()
  await expect(world.item('地球儀')).toBeVisible()

  // Confirmed: gone from the list, and the toast says where it went.
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
  await confirm.getByRole('button', { name: 'Move to trash' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(world.item('地球儀')).toHaveCount(0)
  const trashed = toast('Moved to the trash folder: ')
  await expect(trashed).toContainText(`${join(server.home, 'trash')}/`)
  const folder = /Moved to the trash folder: (\S+)/.exec((await trashed.locator('span').textContent()) ?? '')![1]!
  const record = JSON.parse(readFileSync(join(folder, 'item.json'), 'utf8')) as { item: { name: string } }
  expect(record.item.name).toBe('地球儀')
  await expect(world.building('Library')).toContainText('2 items')
})
