import { expect, type Locator, type Page } from '@playwright/test'

/** The app frame as a user sees it. */
export class AppPage {
  readonly header: Locator
  readonly sidebar: Locator
  readonly canvas: Locator
  readonly connection: Locator
  readonly version: Locator

  constructor(
    readonly page: Page,
    private readonly url: string,
  ) {
    this.header = page.locator('header.app-header')
    this.sidebar = page.locator('aside.app-sidebar')
    this.canvas = page.locator('section.graph-canvas')
    this.connection = page.getByTestId('connection')
    this.version = page.getByTestId('version')
  }

  async open(): Promise<void> {
    await this.page.goto(this.url)
    await expect(this.connection).toHaveAttribute('class', /connection-connected/)
  }

  /** Brings the sidebar's World tab forward (Conversations is the default). */
  async showWorld(): Promise<void> {
    await this.sidebar.getByRole('tab', { name: /^(World|ワールド)$/ }).click()
    await expect(this.sidebar.locator('.building-sidebar')).toBeVisible()
  }

  settingsButton(name: RegExp | string): Locator {
    return this.header.getByRole('button', { name })
  }

  async chooseSetting(label: RegExp | string, value: string): Promise<void> {
    await this.page.getByRole('dialog').getByLabel(label).selectOption(value)
  }

  theme(): Promise<string | undefined> {
    return this.page.evaluate(() => document.documentElement.dataset.theme)
  }

  /** Sends one raw request over a WebSocket opened from inside the page, as any script on it could. */
  rawRequest(wsUrl: string, message: unknown): Promise<unknown> {
    return this.page.evaluate(
      ([url, msg]) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url as string)
          ws.onopen = () => ws.send(JSON.stringify(msg))
          ws.onmessage = (e) => {
            resolve(JSON.parse(String(e.data)))
            ws.close()
          }
          ws.onerror = () => reject(new Error('websocket refused'))
        }),
      [wsUrl, message] as const,
    )
  }
}
