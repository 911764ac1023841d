import { expect, test } from './fixtures'
import { MemoryPage } from './pages/memory.page'
import { everyMemoryJobReply } from '../tests/support/memoryJobReply'
import { firstExchangeWith } from './pages/persona.steps'

/** Only the memory jobs send the lightweight model this phrase: the reply itself comes from gpt-4o. */
const PHRASE = 'violet lighthouse'
const LIGHTWEIGHT = 'gpt-4o-mini'

const EVERY_EPISODE_JOB = everyMemoryJobReply()

test('memory jobs: refused by the provider they fail for good, show why, and run again when retried', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const memory = new MemoryPage(page)
  llm.script({ model: LIGHTWEIGHT, promptIncludes: PHRASE, status: 400 })
  const rin = {
    name: 'Rin',
    persona: 'A lighthouse keeper who writes everything down.',
    lightweight: `openai:${LIGHTWEIGHT}`,
  }
  await firstExchangeWith(app, graph, rin, `I walked out to the ${PHRASE} this morning.`)

  // The status bar tells of the failures and leads to them.
  const bar = page.getByTestId('jobs')
  await expect(bar).toContainText('Memory of Rin failed: 4 jobs', { timeout: 20_000 })
  await bar.getByRole('button', { name: 'Show jobs' }).click()
  await expect(memory.panel.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true')
  await expect(memory.jobFilter).toHaveValue('failed')

  // A 400 is not worth another try: each episode job is dead-lettered at once.
  const failedCount = memory.panel.getByTestId('memory-status').getByRole('button', { name: /jobs? failed/ })
  await expect(failedCount).toHaveText('4 jobs failed', { timeout: 20_000 })
  await failedCount.click()
  await expect(memory.panel.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true')
  await expect(memory.jobFilter).toHaveValue('failed')
  await expect(memory.jobs).toHaveCount(4)
  for (const kind of ['Reflection', 'People and places', 'Facts', 'Open loops']) {
    await expect(memory.job(kind).getByTestId('memory-job-error')).toContainText('refused the request')
    await expect(memory.job(kind).getByRole('button', { name: 'Retry', exact: true })).toBeVisible()
  }

  // A job names its memory: the link opens it; back on Jobs, the failed ones are shown again.
  await memory
    .job('Reflection')
    .getByRole('button', { name: /^Memory #\d+$/ })
    .click()
  await expect(memory.detail).toContainText(PHRASE)
  await memory.tab('Jobs')
  await expect(memory.jobFilter).toHaveValue('failed')

  // The provider is back: retry them all, and watch every one finish.
  llm.reset()
  llm.script({ model: LIGHTWEIGHT, promptIncludes: PHRASE, reply: EVERY_EPISODE_JOB })
  await memory.panel.getByRole('button', { name: 'Retry all failed' }).click()
  await expect(page.getByRole('status').filter({ hasText: '4 jobs queued again' })).toBeVisible()
  await expect(memory.jobFilter).toHaveValue('all')
  for (const kind of ['Reflection', 'People and places', 'Facts', 'Open loops'])
    await expect(memory.job(kind)).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  // The period summaries wait a minute after the last episode.
  await expect(memory.job('Summary').first()).toContainText('waits until')
  await expect(failedCount).toBeHidden()
  await expect(bar).not.toContainText('failed')
  await memory.jobFilter.selectOption({ label: 'Failed' })
  await expect(memory.panel.getByText('No failed jobs.')).toBeVisible()
})
