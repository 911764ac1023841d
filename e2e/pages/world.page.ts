import { expect, type Locator, type Page } from '@playwright/test'

/** The world as a user meets it: the building sidebar, item modals, files dropped on the window. */
export class WorldPage {
  readonly sidebar: Locator

  constructor(readonly page: Page) {
    this.sidebar = page.locator('aside.building-sidebar')
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
    await this.page.dispatchEvent('main.graph-canvas', 'dragover', { dataTransfer })
    await this.page.dispatchEvent('main.graph-canvas', 'drop', { dataTransfer })
  }
}
