import { expect, type Locator, type Page } from '@playwright/test'
import type { AppPage } from './app.page'
import type { GraphPage } from './graph.page'

export interface NewPersona {
  name: string
  persona: string
  /** `provider:model` for the chat role; the fake's `gpt-4o` by default. */
  chat?: string
  /** `provider:model` for the lightweight role (memory jobs); the app default when absent. */
  lightweight?: string
}

/** Opens the Personas dialog from the header. */
export async function openPersonas(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Personas…' }).click()
  return page.getByRole('dialog', { name: 'Personas' })
}

/** Creates a persona in the Personas dialog and binds the open conversation to it. */
export async function bindNewPersona(page: Page, p: NewPersona): Promise<void> {
  await createPersona(page, p)
  const picker = page.getByLabel('Persona', { exact: true })
  await picker.selectOption({ label: p.name })
  await expect(picker.locator('option:checked')).toHaveText(p.name)
}

/** Creates a persona in the Personas dialog (a new one, whichever the dialog shows first), and closes it. */
export async function createPersona(page: Page, p: NewPersona): Promise<void> {
  const dialog = await openPersonas(page)
  await dialog.getByRole('button', { name: 'New persona' }).click()
  await dialog.getByLabel('Name').fill(p.name)
  await dialog.getByLabel('Persona', { exact: true }).fill(p.persona)
  await dialog.getByLabel('Chat', { exact: true }).fill(p.chat ?? 'openai:gpt-4o')
  if (p.lightweight) await dialog.getByLabel('Lightweight (summaries)').fill(p.lightweight)
  await dialog.getByRole('button', { name: 'Create persona' }).click()
  await expect(dialog.getByRole('button', { name: p.name })).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()
}

/**
 * The memory specs' opening: a new conversation bound to a new persona, and a first exchange
 * answered (the fake echoes it), so the persona has an episode to remember.
 */
export async function firstExchangeWith(
  app: AppPage,
  graph: GraphPage,
  persona: NewPersona,
  message: string,
): Promise<void> {
  await app.open()
  await graph.newFlow()
  await bindNewPersona(app.page, persona)
  await graph.send(message)
  await expect(graph.card(1).getByTestId('node-response')).toContainText('echo')
}
