import { expect, type Locator, type Page } from '@playwright/test'
import type { GraphPage } from './graph.page'

/** The reading pane as a user meets it: the transcript of the active path, its turns and their actions. */
export class TranscriptPage {
  readonly log: Locator
  readonly splitter: Locator

  constructor(
    readonly page: Page,
    private readonly graph: GraphPage,
  ) {
    this.log = page.getByRole('log', { name: 'Messages on the current path' })
    this.splitter = page.getByRole('separator', { name: 'Resize the transcript and the graph' })
  }

  /** Turn #index (the user's message and the reply to it). */
  turn(index: number): Locator {
    return this.log.locator(`[data-testid=transcript-turn][data-index="${index}"]`)
  }

  message(index: number): Locator {
    return this.log.getByRole('article', { name: `Your message, turn #${index}`, exact: true })
  }

  reply(index: number): Locator {
    return this.log.getByRole('article', { name: `Reply, turn #${index}`, exact: true })
  }

  /** The turn numbers on the path, top to bottom, as far as they are rendered. */
  async shownIndexes(): Promise<number[]> {
    const indexes = await this.log
      .locator('[data-testid=transcript-turn]')
      .evaluateAll((els) =>
        els.map((el) => ({ index: Number(el.getAttribute('data-index')), top: el.getBoundingClientRect().top })),
      )
    return indexes.sort((a, b) => a.top - b.top).map((t) => t.index)
  }

  alternatives(index: number): Locator {
    return this.page.getByRole('group', { name: `Alternatives at turn #${index}` })
  }

  async view(name: 'Transcript' | 'Both' | 'Graph'): Promise<void> {
    await this.page.getByRole('group', { name: 'View' }).getByRole('button', { name, exact: true }).click()
  }

  /**
   * Adds turns under the newest node of the open conversation through the app's API (as another
   * program would), each continuing the last; resolves once the transcript shows the last one.
   */
  async addTurns(count: number, text: (i: number) => { prompt: string; response: string }): Promise<string[]> {
    const flow = await this.graph.currentFlow()
    let parent = flow.nodes.at(-1)?.id
    const ids: string[] = []
    for (let i = 0; i < count; i++) {
      const node = (await this.graph.request('create_node', {
        flow_id: flow.id,
        ...text(i),
        ...(parent ? { parent_ids: [parent] } : {}),
      })) as { id: string }
      ids.push(node.id)
      parent = node.id
    }
    return ids
  }

  /** Waits until the transcript's scrolling has come to rest (the same offset on four reads). */
  async settled(): Promise<void> {
    const handle = await this.log.elementHandle()
    const token = Math.random()
    await this.page.waitForFunction(
      ([el, run]) => {
        const memo = el as unknown as { __rest?: { run: number; top: number; same: number } }
        const top = (el as HTMLElement).scrollTop
        const last = memo.__rest
        memo.__rest =
          last && last.run === run && last.top === top ? { ...last, same: last.same + 1 } : { run, top, same: 0 }
        return memo.__rest.same >= 3
      },
      [handle, token] as const,
      { polling: 100 },
    )
    await expect(this.log).toBeVisible()
  }
}
