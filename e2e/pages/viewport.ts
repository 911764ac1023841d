import type { Locator, Page } from '@playwright/test'

/**
 * Waits until a React Flow canvas stops moving (fit and centre animate for 250 ms): its viewport
 * transform is the same on four reads 100 ms apart. A click aimed while it moves can land beside
 * its target. Each call starts afresh: a transform remembered from an earlier call would pass the
 * first read before a just-clicked animation has started to move.
 */
export async function viewSettled(page: Page, canvas?: Locator): Promise<void> {
  const viewport = await (canvas ?? page.locator('body')).locator('.react-flow__viewport').first().elementHandle()
  const token = Math.random()
  await page.waitForFunction(
    ([el, run]) => {
      const transform = (el as HTMLElement | null)?.style.transform ?? ''
      const memo = el as unknown as { __settle?: { run: number; transform: string; same: number } }
      const last = memo.__settle
      memo.__settle =
        last && last.run === run && last.transform === transform
          ? { ...last, same: last.same + 1 }
          : { run: run as number, transform, same: 0 }
      return memo.__settle.same >= 3
    },
    [viewport, token] as const,
    { polling: 100 },
  )
}
