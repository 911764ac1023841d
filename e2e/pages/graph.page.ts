import { expect, type Locator, type Page } from '@playwright/test'
import { viewSettled } from './viewport'

interface FlowShape {
  id: string
  nodes: Array<{ index: number; id: string }>
  connections: Array<{ from: string; to: string }>
}

/** The conversation graph as a user drives it: composer, node cards, edges, menus, panels. */
export class GraphPage {
  constructor(
    readonly page: Page,
    private readonly wsUrl: string,
  ) {}

  /** Starts a new conversation and waits until it is the open one (not just any open conversation). */
  async newFlow(): Promise<void> {
    const open = this.page.locator('li[data-flow-id]').filter({ has: this.page.locator('[aria-current="true"]') })
    const before = (await open.count()) > 0 ? await open.getAttribute('data-flow-id') : null
    await this.page.getByRole('button', { name: 'New conversation' }).first().click()
    await expect(open).toHaveCount(1)
    if (before) await expect(open).not.toHaveAttribute('data-flow-id', before)
    await expect(this.page.getByLabel('Prompt')).toBeVisible()
  }

  /** A new conversation with these prompts sent one after another (each continuing the last). */
  async startConversation(...prompts: string[]): Promise<void> {
    await this.newFlow()
    for (const prompt of prompts) await this.send(prompt)
  }

  /** Types a prompt and sends it, waiting until the composer continues from the new node. */
  async send(text: string): Promise<void> {
    await this.page.getByLabel('Prompt').fill(text)
    await this.page.keyboard.press('Control+Enter')
    await expect(this.page.locator('.conv-node.selected [data-testid=node-prompt]')).toHaveText(text)
  }

  async fitView(): Promise<void> {
    await this.page.getByRole('button', { name: 'Fit View' }).click()
    await viewSettled(this.page)
  }

  card(index: number): Locator {
    return this.page.locator(`[data-testid=conv-node][data-index="${index}"]`)
  }

  private wrapper(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`)
  }

  async idOf(index: number): Promise<string> {
    return (await this.card(index).getAttribute('data-node-id'))!
  }

  async menu(index: number, item: string): Promise<void> {
    await this.card(index).click({ button: 'right' })
    await this.page.getByRole('menuitem', { name: item }).click()
  }

  /** Drags from one node's bottom handle to another's top handle: a new connection (a merge). */
  async connect(fromIndex: number, toIndex: number): Promise<void> {
    const from = this.wrapper(await this.idOf(fromIndex)).locator('.react-flow__handle-bottom')
    const to = this.wrapper(await this.idOf(toIndex)).locator('.react-flow__handle-top')
    await this.drag(from, to)
  }

  /** Drags the parent end of the edge from → to onto another node's bottom handle: `to` gets a new parent. */
  async reparent(fromIndex: number, toIndex: number, ontoIndex: number): Promise<void> {
    const edgeId = `${await this.idOf(fromIndex)}->${await this.idOf(toIndex)}`
    const end = this.page.locator(`.react-flow__edge[data-id="${edgeId}"] .react-flow__edgeupdater-source`)
    const onto = this.wrapper(await this.idOf(ontoIndex)).locator('.react-flow__handle-bottom')
    await this.drag(end, onto)
  }

  /**
   * Presses on `from`, moves in steps and releases on `to`. The press must land on `from` itself:
   * a press that lands on something else fails here, naming what it hit, instead of leaving the
   * graph unchanged and failing later at a distance.
   */
  private async drag(from: Locator, to: Locator): Promise<void> {
    const a = (await from.boundingBox())!
    const b = (await to.boundingBox())!
    const start = { x: a.x + a.width / 2, y: a.y + a.height / 2 }
    const hit = await from.evaluate((el, p) => {
      const top = document.elementFromPoint(p.x, p.y)
      return top && (el === top || el.contains(top)) ? null : (top?.className.toString() ?? 'nothing')
    }, start)
    if (hit !== null) throw new Error(`the drag would start on "${hit}", not on its handle`)
    await this.page.mouse.move(start.x, start.y)
    await this.page.mouse.down()
    await this.page.mouse.move((start.x + b.x) / 2, (start.y + b.y) / 2, { steps: 5 })
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 })
    await this.page.mouse.up()
  }

  /** The open flow as the main process has it, by node index: edges as "1→2". */
  async edges(): Promise<string[]> {
    const flow = await this.currentFlow()
    const index = new Map(flow.nodes.map((n) => [n.id, n.index]))
    return flow.connections.map((c) => `${index.get(c.from)}→${index.get(c.to)}`).sort()
  }

  async currentFlow(): Promise<FlowShape> {
    const flows = (await this.request('list_flows', {})) as Array<{ id: string; updated: string }>
    const newest = flows.sort((a, b) => b.updated.localeCompare(a.updated))[0]!
    return (await this.request('get_flow', { id: newest.id })) as FlowShape
  }

  /**
   * Many requests of one kind down one socket from the app's page, sent without waiting for each
   * answer (thousands of them in seconds); resolves with how many were answered, all successes.
   */
  requestMany(action: string, data: readonly unknown[]): Promise<number> {
    return this.page.evaluate(
      ([url, act, payloads]) =>
        new Promise<number>((resolve, reject) => {
          const ws = new WebSocket(url as string)
          let answered = 0
          ws.onopen = () =>
            payloads.forEach((payload, i) => ws.send(JSON.stringify({ id: i, action: act, data: payload })))
          ws.onmessage = (e) => {
            const reply = JSON.parse(String(e.data)) as { id?: number; status?: string }
            if (reply.id === undefined) return // an event
            if (reply.status !== 'success') reject(new Error(`${act as string} ${reply.id} failed`))
            if (++answered === payloads.length) {
              ws.close()
              resolve(answered)
            }
          }
          // A socket that closes before every answer fails the step instead of hanging to the timeout.
          ws.onclose = () => reject(new Error(`the socket closed after ${answered} answers`))
        }),
      [this.wsUrl, action, data] as const,
    )
  }

  /** One request over the app's WebSocket, as a script on the page could make it. */
  request(action: string, data: unknown): Promise<unknown> {
    return this.page.evaluate(
      ([url, act, payload]) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url as string)
          ws.onopen = () => ws.send(JSON.stringify({ id: 1, action: act, data: payload }))
          ws.onmessage = (e) => {
            const reply = JSON.parse(String(e.data)) as { status: string; data: unknown; error?: { message: string } }
            ws.close()
            if (reply.status === 'success') resolve(reply.data)
            else reject(new Error(reply.error?.message))
          }
          // A socket that closes before answering fails the step instead of hanging until the test's timeout.
          ws.onclose = (e) => reject(new Error(`${act as string}: the socket closed (${e.code}) before an answer`))
        }),
      [this.wsUrl, action, data] as const,
    )
  }
}
