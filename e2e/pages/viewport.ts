import type { Locator, Page } from '@playwright/test'

/**
 * Waits until a React Flow canvas stops moving (fit and centre animate): its viewport transform
 * is the same on two reads 100 ms apart. A click aimed while it moves can land beside its target.
 */
export async function viewSettled(page: Page, canvas?: Locator): Promise<void> {
  const viewport = await (canvas ?? page.locator('body')).locator('.react-flow__viewport').first().elementHandle()
  await page.waitForFunction(
    (el) => {
      const transform = (el as HTMLElement | null)?.style.transform ?? ''
      const memo = el as unknown as { __lastTransform?: string }
      const settled = memo.__lastTransform === transform
      memo.__lastTransform = transform
      return settled
    },
    viewport,
    { polling: 100 },
  )
}
