import { expect, type Locator, type Page } from '@playwright/test'

/** The memory inspector in the side panel: units, a unit's detail, "Why remembered?" and the jobs. */
export class MemoryPage {
  readonly panel: Locator
  readonly detail: Locator
  readonly versions: Locator
  readonly packItems: Locator
  readonly jobs: Locator
  readonly jobFilter: Locator

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: 'Memory' })
    this.detail = this.panel.getByTestId('memory-detail')
    this.versions = this.detail.getByTestId('memory-version')
    this.packItems = this.panel.getByTestId('memory-pack-item')
    this.jobs = this.panel.getByTestId('memory-job')
    this.jobFilter = this.panel.getByLabel('Status', { exact: true })
  }

  /** Opens the panel from the header (a no-op when it is already open). */
  async open(): Promise<void> {
    if (await this.panel.isVisible()) return
    await this.page.locator('header.app-header').getByRole('button', { name: 'Memory', exact: true }).click()
    await expect(this.panel).toBeVisible()
  }

  /** Rows of the unit list whose text contains `text`. */
  units(text: string): Locator {
    return this.panel.getByTestId('memory-unit').filter({ hasText: text })
  }

  async openUnit(text: string): Promise<void> {
    await this.units(text).click()
    await expect(this.detail).toBeVisible()
  }

  async backToList(): Promise<void> {
    await this.detail.getByRole('button', { name: '← All memories' }).click()
    await expect(this.detail).toBeHidden()
  }

  /** Rewrites one payload field (by its label) and saves: a new version. */
  async edit(field: string, text: string, reason?: string): Promise<void> {
    // Clicked again if the editor did not open: the status lines above grow when a background job
    // fails, and a full run once saw the click land where Edit had been a moment before (the
    // panel unchanged, no editor, 15 s later). Edit is gone once the editor is open, so a second
    // click never toggles it shut.
    const input = this.detail.getByLabel(field)
    await expect(async () => {
      if (!(await input.isVisible())) await this.detail.getByRole('button', { name: 'Edit', exact: true }).click()
      await expect(input).toBeVisible({ timeout: 2_000 })
    }).toPass({ timeout: 15_000 })
    await input.fill(text)
    if (reason) await this.detail.getByLabel('Reason').fill(reason)
    await this.detail.getByRole('button', { name: 'Save as new version' }).click()
  }

  /** Rows of the jobs view whose kind reads `kind` (e.g. "Memory extraction"). */
  job(kind: string): Locator {
    return this.jobs.filter({ has: this.page.locator('strong', { hasText: kind }) })
  }

  async tab(name: string): Promise<void> {
    const tab = this.panel.getByRole('tab', { name, exact: true })
    await tab.click()
    await expect(tab).toHaveAttribute('aria-selected', 'true')
  }

  async action(name: string): Promise<void> {
    await this.detail.getByRole('button', { name, exact: true }).click()
  }
}
