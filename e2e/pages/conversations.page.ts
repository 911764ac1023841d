import { expect, type Locator, type Page } from '@playwright/test'

/** The sidebar's conversation list as a user drives it: open, pin, rename, filter, delete. */
export class ConversationsPage {
  readonly list: Locator
  readonly filter: Locator

  constructor(readonly page: Page) {
    this.list = page.getByRole('tabpanel', { name: 'Conversations' })
    this.filter = this.list.getByLabel('Filter conversations')
  }

  /** Brings the Conversations tab forward (it is the default; the World tab may have been chosen). */
  async show(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Conversations' }).click()
    await expect(this.list).toBeVisible()
  }

  /** A conversation's row, by its name as the list shows it. */
  row(name: string): Locator {
    return this.list.locator('li[data-flow-id]').filter({ has: this.page.locator('.conv-name', { hasText: name }) })
  }

  /** The names in the list, top to bottom. */
  names(): Locator {
    return this.list.locator('li[data-flow-id] .conv-name')
  }

  /** The open conversation's row. */
  get current(): Locator {
    return this.list.locator('li[data-flow-id]').filter({ has: this.page.locator('[aria-current="true"]') })
  }

  async open(name: string): Promise<void> {
    await this.row(name).locator('.conv-row-open').click()
    await expect(this.current.locator('.conv-name')).toHaveText(name)
  }

  /** One of a row's actions (they show while the row is pointed at). */
  async action(name: string, action: 'Pin to the top' | 'Unpin' | 'Rename' | 'Conversation settings' | 'Delete') {
    const row = this.row(name)
    await row.hover()
    await row.getByRole('button', { name: action, exact: true }).click()
  }

  /** Renames inline: the field takes the new name, Enter keeps it. */
  async rename(from: string, to: string): Promise<void> {
    await this.action(from, 'Rename')
    const field = this.list.getByLabel(`New name for “${from}”`)
    await field.fill(to)
    await field.press('Enter')
    await expect(this.row(to)).toBeVisible()
  }

  /** Opens the settings dialog of the open conversation. */
  async openSettings(): Promise<Locator> {
    const name = (await this.current.locator('.conv-name').textContent())!
    await this.action(name, 'Conversation settings')
    const dialog = this.page.getByRole('dialog', { name: 'Conversation settings' })
    await expect(dialog).toBeVisible()
    return dialog
  }
}
