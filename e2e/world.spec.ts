import { pngBytes } from '../tests/support/world/pngBytes'
import { expect, replyRequests, test } from './fixtures'
import { WorldPage } from './pages/world.page'

test.use({
  serverEnv: {
    // Summaries use their own model names, so a scripted chat reply never goes to a summary job.
    LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: 'openai:summary-mini',
    LOOMVERSE_LIGHTWEIGHT_VISION_MODEL: 'openai:vision-mini',
    LOOMVERSE_IMAGE_MODEL: 'openai:gpt-image-1',
  },
})

test('a dropped PNG becomes a picture in the library, opens as an image, and goes out with the next prompt; a text file is refused', async ({
  app,
  page,
  graph,
  llm,
}) => {
  llm.script({ provider: 'openai', model: 'vision-mini', reply: '赤い正方形の絵。' })
  await app.open()
  const world = new WorldPage(page)
  await graph.newFlow()
  await world.show()
  // The first-run world: the user stands in the library, which holds the user guide.
  await expect(world.sidebar.getByRole('button', { name: /^Library/ })).toHaveAttribute('aria-current', 'location')
  await expect(world.item('Loomverse user guide')).toBeVisible()

  await world.dropFile('red.png', 'image/png', pngBytes(8, 8))
  await expect(page.locator('.toast')).toContainText('Picture item created: red')
  await expect(world.item('red')).toBeVisible()
  await expect(world.item('red')).toContainText('赤い正方形の絵。', { timeout: 15_000 })

  const dialog = await world.open('red')
  await expect(dialog.getByRole('img', { name: 'red' })).toHaveAttribute('src', /^data:image\/png;base64,iVBOR/)
  await expect(dialog.getByTestId('item-summary')).toContainText('赤い正方形の絵。')
  await dialog.getByRole('button', { name: 'Zoom in' }).click()
  await expect(dialog.locator('.item-picture.zoomed')).toBeVisible()
  await world.close(dialog)

  // The picture rides along with the next prompt as an image input.
  await expect(page.getByRole('list', { name: 'Images attached to your next message' }).getByRole('img')).toHaveCount(1)
  // The thumbnails sit above the text box: the box, Context and Send keep their row.
  const box = (await page.getByLabel('Prompt', { exact: true }).boundingBox())!
  const sendButton = (await page.getByRole('button', { name: 'Send' }).boundingBox())!
  const thumbs = (await page.getByRole('list', { name: 'Images attached to your next message' }).boundingBox())!
  expect(thumbs.y + thumbs.height).toBeLessThanOrEqual(box.y + 1)
  expect(sendButton.x).toBeGreaterThan(box.x + box.width - 1)
  expect(sendButton.y).toBeLessThan(box.y + box.height)
  await graph.send('この絵をどう思う？')
  await expect(graph.card(1).getByTestId('node-response')).toContainText('echo')
  const sent = JSON.stringify(
    replyRequests(llm).filter((r) => r.model === 'gpt-4o-mini').at(-1)!.body,
  )
  expect(sent).toContain('data:image/png;base64,iVBOR')
  await expect(page.getByRole('list', { name: 'Images attached to your next message' })).toHaveCount(0)
  // The picture stays with the turn: on its card and in the inspector's "as sent", a click opens it.
  const onCard = graph.card(1).getByRole('list', { name: 'Pictures sent with this prompt' })
  await expect(onCard.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,iVBOR/)
  await page.getByRole('button', { name: 'Context' }).click()
  const inspector = page.getByRole('region', { name: 'Context inspector' })
  await inspector.getByRole('tab', { name: 'Sent with #1' }).click()
  await expect(inspector.getByRole('list', { name: 'Pictures sent with this prompt' }).locator('img')).toBeVisible()
  await onCard.getByRole('button', { name: 'Open the picture' }).click()
  const opened = page.getByRole('dialog', { name: 'red' })
  await expect(opened.getByRole('img', { name: 'red' })).toBeVisible()
  await world.close(opened)

  await world.dropFile('notes.txt', 'text/plain', Buffer.from('just some notes'))
  await expect(page.locator('.toast-error')).toContainText('notes.txt')
  await expect(page.locator('.toast-error')).toContainText('PNG, JPEG, WebP or GIF only')
  await expect(world.item('notes')).toHaveCount(0)
})

test('a persona writes a document by tool call, patches it, and the sidebar and modal follow; an object is not viewable', async ({
  app,
  page,
  graph,
  llm,
}) => {
  await app.open()
  const world = new WorldPage(page)
  await graph.newFlow()
  await world.show()

  llm.script({
    provider: 'openai',
    model: 'gpt-4o-mini',
    times: 1,
    reply: {
      toolCalls: [
        {
          name: 'document_create',
          arguments: { name: '私の日記', description: '今日の日記', content: '今日は晴れ。\n散歩をした。\n' },
        },
      ],
    },
  })
  llm.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: '日記を書いて図書館に置きました。' })
  llm.script({
    provider: 'openai',
    model: 'summary-mini',
    promptIncludes: 'at most 300 characters',
    times: 1,
    reply: '晴れた日に散歩をした日記。',
  })
  await graph.send('日記を書いて')
  await expect(graph.card(1).getByTestId('node-response')).toContainText('図書館に置きました')
  await expect(graph.card(1).getByTestId('node-tool-calls')).toContainText('Tool calls: 1')
  await expect(world.item('私の日記')).toContainText('晴れた日に散歩をした日記。', { timeout: 15_000 })
  // The summary has its own place: the description the persona gave is still there.
  await expect(world.item('私の日記')).toContainText('今日の日記')

  let dialog = await world.open('私の日記')
  await expect(dialog.getByTestId('document-text')).toHaveText('今日は晴れ。\n散歩をした。\n')
  await world.close(dialog)

  // The persona appends with item_use / patch_content; the summary is made again.
  const id = await world.itemId('私の日記')
  llm.script({
    provider: 'openai',
    model: 'gpt-4o-mini',
    times: 1,
    reply: {
      toolCalls: [
        {
          name: 'item_use',
          arguments: {
            item_id: id,
            action_json: JSON.stringify({ action_type: 'patch_content', patch: '夜は本を読んだ。' }),
          },
        },
      ],
    },
  })
  llm.script({ provider: 'openai', model: 'gpt-4o-mini', times: 1, reply: '追記しました。' })
  // Any number of times: a summary retried on a loaded machine gets the same answer.
  llm.script({
    provider: 'openai',
    model: 'summary-mini',
    promptIncludes: '夜は本を読んだ',
    reply: '散歩と読書の一日の日記。',
  })
  await graph.send('日記に追記して')
  await expect(graph.card(2).getByTestId('node-response')).toContainText('追記しました')
  await expect(world.item('私の日記')).toContainText('散歩と読書の一日の日記。', { timeout: 15_000 })
  dialog = await world.open('私の日記')
  await expect(dialog.getByTestId('document-text')).toHaveText('今日は晴れ。\n散歩をした。\n夜は本を読んだ。')
  await expect(dialog.getByTestId('item-auto-summary')).toContainText('散歩と読書の一日の日記。')
  await expect(dialog.getByTestId('item-summary')).toContainText('今日の日記')
  // What the persona wrote is versioned: the history shows both versions.
  await dialog.getByRole('button', { name: 'History' }).click()
  await expect(dialog.locator('.item-history li')).toHaveCount(2)
  await expect(dialog.locator('.item-history li').first()).toContainText('patch_content')
  await world.close(dialog)

  dialog = await world.open('Reading desk')
  await expect(dialog).toContainText('Not viewable')
  await expect(dialog).toContainText('An old oak desk')
})

test('a picture generated from the sidebar hangs where the user is; a refusal is explained and nothing is added', async ({
  app,
  page,
  graph,
  llm,
}) => {
  llm.script({ provider: 'openai', model: 'vision-mini', reply: '夕暮れの灯台の絵。' })
  await app.open()
  const world = new WorldPage(page)
  await graph.newFlow()
  await world.show()

  await world.sidebar.getByText('Generate a picture…').click()
  await world.sidebar.getByLabel('What to draw').fill('A lighthouse at dusk')
  await world.sidebar.getByRole('button', { name: 'Generate', exact: true }).click()
  await expect(page.locator('.toast')).toContainText('Picture item created: A lighthouse at dusk')
  await expect(world.item('A lighthouse at dusk')).toContainText('夕暮れの灯台の絵。', { timeout: 15_000 })
  expect(llm.requests.find((r) => r.path === '/v1/images/generations')?.body).toMatchObject({
    model: 'gpt-image-1',
    prompt: 'A lighthouse at dusk',
  })
  const dialog = await world.open('A lighthouse at dusk')
  await expect(dialog.getByRole('img', { name: 'A lighthouse at dusk' })).toHaveAttribute(
    'src',
    /^data:image\/png;base64,iVBOR/,
  )
  await world.close(dialog)

  llm.script({ provider: 'openai', endpoint: 'image', status: 400 })
  await world.sidebar.getByLabel('What to draw').fill('Something refused')
  await world.sidebar.getByRole('button', { name: 'Generate', exact: true }).click()
  await expect(page.locator('.toast-error')).toContainText('refused the request')
  await expect(world.item('Something refused')).toHaveCount(0)
  await expect(world.sidebar.getByLabel('What to draw')).toHaveValue('Something refused')
})
