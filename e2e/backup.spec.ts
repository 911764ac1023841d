import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'

// The screenshots below are looked at as a user would see the dialog on a laptop.
test.use({ viewport: { width: 1280, height: 800 } })

test('Settings → Backup refuses a folder inside the data folder, backs up into a typed one, schedules, and restores into a new folder', async ({
  app,
  page,
  server,
}, testInfo) => {
  const outside = mkdtempSync(join(tmpdir(), 'loomverse-e2e-backups-'))
  try {
    await app.open()
    await app.settingsButton('Settings').click()
    await page.getByRole('button', { name: 'Backup…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Backup' })
    await expect(dialog.getByTestId('backup-last')).toContainText('none yet')
    // No backup yet: the field says what goes in it rather than standing empty.
    await expect(dialog.getByLabel('Backup to restore')).toHaveAttribute(
      'placeholder',
      'The full path of a backup folder',
    )

    const folderField = dialog.getByLabel('Backup folder')
    await folderField.fill(join(server.home, 'backups'))
    await dialog.getByRole('button', { name: 'Use this folder' }).click()
    await expect(page.locator('.toast')).toContainText('lies inside the data folder')

    await folderField.fill(join(outside, 'backups'))
    await dialog.getByRole('button', { name: 'Use this folder' }).click()
    await expect(dialog.getByRole('button', { name: 'Back up now' })).toBeEnabled()
    await dialog.getByRole('button', { name: 'Back up now' }).click()
    await expect(dialog.getByTestId('backup-last')).toContainText('verified')
    await expect(page.getByTestId('jobs')).not.toContainText('Backup failed')

    // Weekly: the backup just taken is recent, so the next one is a week away.
    await dialog.getByLabel('Automatic backups').selectOption('weekly')
    await expect(dialog).toContainText('Next automatic backup:')
    await dialog.getByLabel('New data folder (must not exist yet)').fill(join(outside, 'restored'))
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click()
    await expect(dialog.getByTestId('restore-report')).toContainText(
      `loomverse serve --home "${join(outside, 'restored')}"`,
    )
    await page.screenshot({ path: testInfo.outputPath('backup-light-en.png') })

    // The same section in the dark theme and Japanese.
    await dialog.getByRole('button', { name: 'Close' }).click()
    await app.settingsButton('Settings').click()
    await app.chooseSetting('Theme', 'dark')
    await app.chooseSetting('Language', 'ja')
    await page.getByRole('button', { name: 'バックアップ…' }).click()
    const ja = page.getByRole('dialog', { name: 'バックアップ' })
    await expect(ja.getByTestId('backup-last')).toContainText('検証済み')
    await page.screenshot({ path: testInfo.outputPath('backup-dark-ja.png') })
  } finally {
    rmSync(outside, { recursive: true, force: true })
  }
})
