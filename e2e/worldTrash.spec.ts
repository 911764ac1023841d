import { expect, test } from './fixtures'
import { WorldPage } from './pages/world.page'

test('a deleted document comes back with its text: by Undo on the toast, then by Restore in the Trash list', async ({
  app,
  page,
}) => {
  await app.open()
  const world = new WorldPage(page)
  await world.show()
  const toast = (text: string) => page.locator('.toast').filter({ hasText: text })
  const trashTitle = world.trash.locator('summary')
  await expect(world.building('Library')).toHaveAttribute('aria-current', 'location')
  await expect(trashTitle).toHaveText('Trash (0)')

  await world.createItem({ type: 'Document', name: '旅の記録', description: '旅のメモ', text: '一日目: 京都' })
  let dialog = await world.open('旅の記録')
  // Read before it is deleted, as a user does. (Its text and its summary come in after the dialog
  // opens, into frames of their own size: worldItemLayout.spec holds that Delete stays put.)
  await expect(dialog.getByTestId('document-text')).toHaveText('一日目: 京都')
  await world.deleteItem(dialog, '旅の記録')
  await expect(trashTitle).toHaveText('Trash (1)')

  // Undo on the toast, from the keyboard: the document is back in the list with its text.
  const deleted = toast('Moved to the trash folder: ')
  const undo = deleted.getByRole('button', { name: 'Undo' })
  await undo.focus()
  await undo.press('Enter')
  await expect(deleted).toHaveCount(0)
  const restored = toast('Restored: 旅の記録')
  await expect(restored).toBeVisible()
  await restored.getByRole('button', { name: 'Dismiss' }).click()
  await expect(world.item('旅の記録')).toBeVisible()
  await expect(trashTitle).toHaveText('Trash (0)')
  dialog = await world.open('旅の記録')
  await expect(dialog.getByTestId('document-text')).toHaveText('一日目: 京都')

  // Deleted again, and this time restored from the Trash list, which says when and from where.
  await world.deleteItem(dialog, '旅の記録')
  await world.openTrash()
  const entry = world.trashed('旅の記録')
  await expect(entry).toContainText(/Deleted .+ from Library/)
  await expect(entry.getByRole('img', { name: 'Document' })).toBeVisible()
  await entry.getByRole('button', { name: 'Restore 旅の記録' }).click()
  await expect(restored).toBeVisible()
  await expect(entry).toHaveCount(0)
  await expect(trashTitle).toHaveText('Trash (0)')
  await expect(world.trash).toContainText('Nothing has been deleted.')
  dialog = await world.open('旅の記録')
  await expect(dialog.getByTestId('document-text')).toHaveText('一日目: 京都')
  await expect(world.building('Library')).toContainText('3 items')
})
