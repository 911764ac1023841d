import { testServers } from '../tests/support/mcp/testServers'
import { expect, test } from './fixtures'
import { TranscriptPage } from './pages/transcript.page'

// Issue #39: a server added from Settings → Tools (the reference "everything" MCP server from
// npm), its tools listed, then a reply (the fake LLM) calls one: the user approves it in the
// transcript and reads the result there.

test('adds an MCP server in Settings, sees its tools, approves a call a reply makes and reads its result', async ({
  app,
  page,
  graph,
  llm,
}, testInfo) => {
  const transcript = new TranscriptPage(page, graph)
  await app.open()
  await graph.newFlow()

  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Tools (MCP servers)…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Tools (MCP servers)' })
  await expect(dialog).toContainText('No MCP servers yet.')
  await dialog.getByRole('button', { name: 'Add server' }).click()
  await dialog.getByLabel('Name').fill('everything')
  await dialog.getByLabel('Server (JSON)').fill(JSON.stringify(testServers.everything, null, 2))
  await dialog.getByRole('button', { name: 'Save and start' }).click()
  const row = dialog.getByTestId('mcp-server').filter({ hasText: 'everything' })
  // Browser mode: a new command runs only once the user confirms it here, and nothing has run yet.
  await expect(row.getByTestId('mcp-status')).toHaveText('Waits for your confirmation')
  await expect(dialog.getByTestId('mcp-secrets-note')).toContainText('unencrypted in mcp-secrets.json')
  await page.screenshot({ path: testInfo.outputPath('confirm.png') })
  await row.getByRole('button', { name: 'Run…' }).click()
  await expect(row.getByTestId('mcp-status')).toHaveText('Connected', { timeout: 30_000 })
  await row.getByText(/\d+ tools/).click()
  await expect(row).toContainText('Echoes back the input string')
  await page.screenshot({ path: testInfo.outputPath('tools-dialog.png') })
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click()

  llm.script({
    provider: 'openai',
    times: 1,
    reply: { toolCalls: [{ name: 'everything__echo', arguments: { message: 'from the e2e test' } }] },
  })
  llm.script({ provider: 'openai', times: 1, reply: 'The tool echoed your words.' })
  await page.getByLabel('Prompt', { exact: true }).fill('Please echo something')
  await page.keyboard.press('Control+Enter')

  const answer = transcript.reply(1)
  const call = answer.getByTestId('mcp-call')
  await expect(call).toContainText('Asks to run', { timeout: 30_000 })
  await expect(call).toContainText('"message": "from the e2e test"')
  await page.screenshot({ path: testInfo.outputPath('approval.png') })
  await call.getByRole('button', { name: 'Allow once' }).click()
  await expect(call.getByTestId('mcp-result')).toHaveText('Echo: from the e2e test')
  await expect(call).toContainText('Done')
  await expect(answer.getByTestId('transcript-response')).toHaveText('The tool echoed your words.')
  await expect(answer.getByTestId('node-tool-calls')).toHaveCount(0) // shown once, as the MCP call
  await page.screenshot({ path: testInfo.outputPath('result.png') })

  // The context inspector names the tools the next reply is offered and what their schemas cost.
  await page.getByRole('button', { name: 'Context', exact: true }).click()
  const offered = page.getByTestId('context-mcp-tools')
  await expect(offered).toContainText(/MCP tools offered: 1\d/)
  await offered.locator('summary').click()
  await expect(offered).toContainText('everything__echo')
  await page.screenshot({ path: testInfo.outputPath('context.png') })

  // "Always allow" stops the asking; revoked in Settings → Tools, the tool asks first again.
  const askedAndAllowed = async (prompt: string, index: number, answerWith: string | null) => {
    llm.script({
      provider: 'openai',
      times: 1,
      reply: { toolCalls: [{ name: 'everything__echo', arguments: { message: prompt } }] },
    })
    llm.script({ provider: 'openai', times: 1, reply: `Echoed ${prompt}.` })
    await page.getByLabel('Prompt', { exact: true }).fill(prompt)
    await page.keyboard.press('Control+Enter')
    const reply = transcript.reply(index)
    if (answerWith) await reply.getByTestId('mcp-call').getByRole('button', { name: answerWith }).click()
    await expect(reply.getByTestId('transcript-response')).toHaveText(`Echoed ${prompt}.`)
    return reply
  }
  await askedAndAllowed('second', 2, 'Always allow for this persona')
  const third = await askedAndAllowed('third', 3, null)
  await expect(third.getByTestId('mcp-call')).toContainText('Done')

  await app.settingsButton('Settings').click()
  await page.getByRole('button', { name: 'Tools (MCP servers)…' }).click()
  const grants = dialog.getByTestId('mcp-grants')
  await grants.getByText('Always allowed: 1 tool').click()
  await expect(grants.getByTestId('mcp-grant')).toHaveText(/everything__echo/)
  await page.screenshot({ path: testInfo.outputPath('always-allowed.png') })
  await grants.getByRole('button', { name: /^Revoke everything__echo for / }).click()
  await expect(grants).toContainText('No tool is always allowed.')
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click()
  const fourth = await askedAndAllowed('fourth', 4, 'Allow once')
  await expect(fourth.getByTestId('mcp-call')).toContainText('Done')
})
