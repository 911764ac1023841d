import { apiCall } from '../tests/support/apiClient'
import { expect, test } from './fixtures'
import { bindNewPersona } from './pages/persona.steps'

test('a program gets its own token in Settings, feeds the persona a notification that shows in the app, and is cut off once revoked', async ({
  app,
  page,
  llm,
  graph,
  server,
}) => {
  await app.open()
  await graph.newFlow()
  await bindNewPersona(page, { name: 'Mika', persona: 'A cheerful assistant.' })

  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Connected programs…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connected programs' })
  await expect(dialog).toContainText('No programs connected yet.')
  await dialog.getByLabel('Program').fill('calendar script')
  await dialog.getByRole('button', { name: 'Create token' }).click()
  const shown = dialog.getByLabel('New token')
  await expect(shown).toHaveText(/^lvk_/)
  const token = (await shown.textContent())!
  await expect(dialog.getByRole('status')).toContainText('it is not shown again')

  // The program uses it: the persona's reply appears as a notice, as the seed's sequence ends.
  llm.script({ promptIncludes: 'calendar', reply: 'Dentist at three, do not forget!' })
  const auth = { authorization: `Bearer ${token}` }
  const posted = await apiCall(server.port, {
    path: '/api/notification',
    headers: auth,
    body: { source_system: 'calendar', text: 'Dentist 15:00' },
  })
  expect(posted.status).toBe(200)
  await expect(page.locator('.toast')).toContainText('Mika: Dentist at three, do not forget!')

  // Listed with its use; revoked, its next request is refused.
  await dialog.getByRole('button', { name: 'Close' }).click()
  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Connected programs…' }).click()
  const row = dialog.getByRole('row', { name: /calendar script/ })
  await expect(row.getByRole('cell').nth(2)).toHaveText('1')
  await expect(dialog.getByLabel('New token')).toHaveCount(0) // shown once only
  // The row names the program; its button says what it does (the name is for a screen reader).
  const revoke = row.getByRole('button', { name: 'Revoke calendar script' })
  await expect(revoke).toHaveText('Revoke')
  await revoke.click()
  await expect(row).toContainText('Revoked')
  const refused = await apiCall(server.port, {
    path: '/api/notification',
    headers: auth,
    body: { source_system: 'calendar', text: 'again' },
  })
  expect(refused.status).toBe(401)
})
