import { expect, type Locator } from '@playwright/test'
import { viewSettled } from './viewport'

/** The memory inspector's Entities view drawn as a graph (List | Graph inside the Entities tab). */
export class EntityGraphPage {
  readonly figure: Locator
  readonly search: Locator

  constructor(readonly panel: Locator) {
    this.figure = panel.getByRole('figure', { name: 'Entity graph' })
    this.search = panel.getByLabel('Filter entities')
  }

  /** Goes to the Entities tab and switches it to the graph. */
  async open(): Promise<void> {
    await this.panel.getByRole('tab', { name: 'Entities', exact: true }).click()
    await this.panel.getByRole('tab', { name: 'Graph', exact: true }).click()
    await expect(this.figure).toBeVisible()
  }

  /** The node named exactly `name` ("Kyoto" is not "Kyoto City Library"). */
  node(name: string): Locator {
    return this.figure.getByTestId('entity-node').filter({ has: this.panel.page().getByText(name, { exact: true }) })
  }

  /** Clicks the node once the graph has stopped fitting itself to what the search found. */
  async clickNode(name: string): Promise<void> {
    await viewSettled(this.panel.page(), this.figure)
    await this.node(name).click()
  }

  /** The label of each relation of this type. */
  relation(rel: string): Locator {
    return this.figure.getByTestId('entity-edge-label').filter({ hasText: rel })
  }
}
