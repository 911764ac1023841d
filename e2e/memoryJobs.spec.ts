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
  await expect(bar).toContainText('Memory of Rin failed: 1 job', { timeout: 20_000 })
  await bar.getByRole('button', { name: 'Show jobs' }).click()
  await expect(memory.panel.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true')
  await expect(memory.jobFilter).toHaveValue('failed')

  // A 400 is not worth another try: the episode's one extraction job is dead-lettered at once.
  const failedCount = memory.panel.getByTestId('memory-status').getByRole('button', { name: /jobs? failed/ })
  await expect(failedCount).toHaveText('1 job failed', { timeout: 20_000 })
  await failedCount.click()
  await expect(memory.panel.getByRole('tab', { name: 'Jobs' })).toHaveAttribute('aria-selected', 'true')
  await expect(memory.jobFilter).toHaveValue('failed')
  await expect(memory.jobs).toHaveCount(1)
  const extraction = memory.job('Memory extraction')
  await expect(extraction.getByTestId('memory-job-error')).toContainText('refused the request')
  await expect(extraction.getByRole('button', { name: 'Retry', exact: true })).toBeVisible()

  // A job names its memory: the link opens it; back on Jobs, the failed ones are shown again.
  await extraction.getByRole('button', { name: /^Memory #\d+$/ }).click()
  await expect(memory.detail).toContainText(PHRASE)
  await memory.tab('Jobs')
  await expect(memory.jobFilter).toHaveValue('failed')

  // The provider is back: retry them all, and watch every one finish.
  llm.reset()
  llm.script({ model: LIGHTWEIGHT, promptIncludes: PHRASE, reply: EVERY_EPISODE_JOB })
  await memory.panel.getByRole('button', { name: 'Retry all failed' }).click()
  await expect(page.getByRole('status').filter({ hasText: '1 job queued again' })).toBeVisible()
  await expect(memory.jobFilter).toHaveValue('all')
  await expect(memory.job('Memory extraction')).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  // The period summaries wait a minute after the last episode.
  await expect(memory.job('Summary').first()).toContainText('waits until')
  await expect(failedCount).toBeHidden()
  await expect(bar).not.toContainText('failed')
  await memory.jobFilter.selectOption({ label: 'Failed' })
  await expect(memory.panel.getByText('No failed jobs.')).toBeVisible()
  // What memory spent today shows in the panel.
  await expect(memory.panel.getByTestId('memory-spend')).toContainText(/Today: \d+ model calls, [\d,]+ tokens/)
})

test('memory jobs: a model that never answers in JSON pauses memory with one message, and retry resumes it', async ({
  app,
  page,
  graph,
  llm,
}) => {
  const memory = new MemoryPage(page)
  llm.script({ model: LIGHTWEIGHT, promptIncludes: PHRASE, reply: 'Happy to help! It was a lovely walk.' })
  const rin = { name: 'Rin', persona: 'A lighthouse keeper.', lightweight: `openai:${LIGHTWEIGHT}` }
  await firstExchangeWith(app, graph, rin, `I walked out to the ${PHRASE} this morning.`)
  for (const more of ['The gulls were loud.', 'The tide came in fast.']) {
    await graph.send(`${more} (${PHRASE})`)
  }

  // Three extractions failed, each after one request to fix the answer: memory pauses, and says how to go on.
  const notice = page.getByTestId('memory-paused-notice')
  await expect(notice).toContainText(
    `Memory of Rin is paused: the lightweight model openai:${LIGHTWEIGHT} failed 3 times in a row`,
    { timeout: 20_000 },
  )
  await expect(notice).toContainText("the model's answer is not JSON")
  await expect(page.getByTestId('jobs')).not.toContainText('Memory of Rin failed')
  for (const action of ['Change model', 'Retry', 'Pause memory for this persona'])
    await expect(notice.getByRole('button', { name: action, exact: true })).toBeVisible()

  // The model is fixed; Retry resumes memory and runs the failed jobs again. The message goes.
  llm.reset()
  llm.script({ model: LIGHTWEIGHT, promptIncludes: PHRASE, reply: EVERY_EPISODE_JOB })
  await notice.getByRole('button', { name: 'Retry', exact: true }).click()
  await expect(notice).toBeHidden()
  await memory.open()
  await memory.tab('Jobs')
  await expect(memory.job('Memory extraction')).toHaveCount(3)
  for (const row of await memory.job('Memory extraction').all())
    await expect(row).toHaveAttribute('data-status', 'done', { timeout: 20_000 })
  await expect(memory.panel.getByTestId('memory-paused')).toBeHidden()

  // The user's own switch: paused, the panel says so; unticked, memory runs again.
  const pause = memory.panel.getByRole('checkbox', { name: 'Pause memory for this persona' })
  // (The box follows the host's answer, so it is clicked and then awaited rather than check()ed.)
  await pause.click()
  await expect(pause).toBeChecked()
  await expect(memory.panel.getByTestId('memory-paused')).toContainText('Memory is paused')
  await pause.click()
  await expect(pause).not.toBeChecked()
  await expect(memory.panel.getByTestId('memory-paused')).toBeHidden()
})
