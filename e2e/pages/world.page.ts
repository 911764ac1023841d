import { expect, type Locator, type Page } from '@playwright/test'

/** The world as a user meets it: the building sidebar, item modals, files dropped on the window. */
export class WorldPage {
  readonly sidebar: Locator

  constructor(readonly page: Page) {
    this.sidebar = page.locator('aside.app-sidebar .building-sidebar')
  }

  /** Brings the sidebar's World tab forward (Conversations is the default). */
  async show(): Promise<void> {
    await this.page.getByRole('tab', { name: 'World' }).click()
    await expect(this.sidebar).toBeVisible()
  }

  item(name: string): Locator {
    return this.sidebar.locator('li[data-item-id]').filter({ hasText: name })
  }

  async itemId(name: string): Promise<string> {
    return (await this.item(name).getAttribute('data-item-id'))!
  }

  /** Clicks the item in the sidebar; returns its dialog. */
  async open(name: string): Promise<Locator> {
    await this.item(name).getByRole('button').click()
    const dialog = this.page.getByRole('dialog', { name })
    await expect(dialog).toBeVisible()
    return dialog
  }

  async close(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toHaveCount(0)
  }

  /** A building's button in the sidebar (its name, then how many items it holds). */
  building(name: string): Locator {
    return this.sidebar.getByRole('button', { name: new RegExp(`^${name}`) })
  }

  /** Walks into a building: the item list then shows what it holds. */
  async goTo(name: string): Promise<void> {
    await this.building(name).click()
    await expect(this.building(name)).toHaveAttribute('aria-current', 'location')
    await expect(this.sidebar.getByRole('heading', { name: `Items in ${name}` })).toBeVisible()
  }

  /** Fills the sidebar's "New item…" form and submits it from the keyboard. */
  async createItem(item: { type: 'Document' | 'Object'; name: string; description: string; text?: string }) {
    const form = this.sidebar.locator('details.new-item')
    if (!(await form.evaluate((d: HTMLDetailsElement) => d.open))) await form.getByText('New item…').click()
    await form.getByLabel('Item type').selectOption({ label: item.type })
    await form.getByLabel('Description').fill(item.description)
    if (item.text !== undefined) await form.getByLabel('Text (optional)').fill(item.text)
    await form.getByLabel('Item name').fill(item.name)
    await form.getByLabel('Item name').press('Enter')
    await expect(this.item(item.name)).toBeVisible()
  }

  /** Moves the item whose dialog is open to another building; the dialog closes as the item leaves. */
  async moveTo(dialog: Locator, building: string): Promise<void> {
    await dialog.getByLabel('Move to…').selectOption({ label: building })
    await dialog.getByRole('button', { name: 'Move', exact: true }).click()
    await expect(dialog).toHaveCount(0)
  }

  /** Deletes the item whose dialog is open, confirming when asked; it leaves the list. */
  async deleteItem(dialog: Locator, name: string): Promise<void> {
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
    const confirm = this.page.getByRole('dialog', { name: `Delete “${name}”?` })
    await confirm.getByRole('button', { name: 'Move to trash' }).click()
    await expect(this.page.getByRole('dialog')).toHaveCount(0)
    await expect(this.item(name)).toHaveCount(0)
  }

  /** The sidebar's folded "Trash (N)" list. */
  get trash(): Locator {
    return this.sidebar.locator('details.trash-list')
  }

  /** A deleted item's row in the Trash list. */
  trashed(name: string): Locator {
    return this.trash.locator('li[data-trash-id]').filter({ hasText: name })
  }

  /** Unfolds the Trash list (if folded) and returns it. */
  async openTrash(): Promise<Locator> {
    if (!(await this.trash.evaluate((d: HTMLDetailsElement) => d.open))) await this.trash.locator('summary').click()
    return this.trash
  }

  /** Drags a file from outside the browser and drops it on the graph, as the OS would. */
  async dropFile(name: string, mime: string, bytes: Buffer): Promise<void> {
    const dataTransfer = await this.page.evaluateHandle(
      ([fileName, type, b64]) => {
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
        const transfer = new DataTransfer()
        transfer.items.add(new File([data], fileName, { type }))
        return transfer
      },
      [name, mime, bytes.toString('base64')] as const,
    )
    await this.page.dispatchEvent('section.graph-canvas', 'dragover', { dataTransfer })
    // While a file is over the window the drop zone says what a drop does.
    await expect(this.page.locator('html.dropping-file section.graph-canvas[data-drop-label]')).toHaveCount(1)
    await this.page.dispatchEvent('section.graph-canvas', 'drop', { dataTransfer })
    await expect(this.page.locator('html.dropping-file')).toHaveCount(0)
  }
}
