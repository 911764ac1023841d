// `npm run screenshots`: the built app (browser mode) with the fake LLM and some seeded
// content, photographed at 1280x800 in English and Japanese, light and dark, into
// docs/screenshots/<screen>-<lang>-<theme>.png. Review them as a user would before a UI change
// is called done; the README shows a few.
//
//   npm run screenshots              builds first
//   npm run screenshots -- --no-build
//   npm run screenshots -- --out DIR  somewhere else (a review copy)
//   npm run screenshots -- --only backup,providers --languages ja --themes dark
//                                     some screens (names as in the files), languages, themes

import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import WebSocket from 'ws'
import { startFakeLlm } from '../tests/support/fakeLlm'
import { words } from '../e2e/pages/words'
import { llmEnv, startServer, type Server } from '../tests/support/serveProcess'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const outIndex = args.indexOf('--out')
const outDir = resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1]! : join(root, 'docs/screenshots'))
/** The values a `--name a,b` option lists; all of `known` when it is absent. */
function listed<T extends string>(name: string, known: readonly T[]): readonly T[] {
  const i = args.indexOf(name)
  if (i < 0) return known
  const asked = (args[i + 1] ?? '').split(',').filter(Boolean)
  const unknown = asked.filter((a) => !known.includes(a as T))
  if (unknown.length > 0 || asked.length === 0)
    throw new Error(`${name}: expected some of ${known.join(', ')}, got "${args[i + 1] ?? ''}"`)
  return asked as T[]
}
/** Shot on one page of the seeded conversation, in this order. */
const mainScreens = [
  'main',
  'palette',
  'settings',
  'memory',
  'memory-unit',
  'context',
  'world',
  'world-item',
  'search',
  'personas',
] as const
/** Dialogs opened from the More menu and Settings (shootDialogs). */
const dialogScreens = [
  'lorebooks',
  'lorebook-book',
  'providers',
  'programs',
  'backup',
  'tools',
  'mcp-resources',
] as const
const screens = [
  'welcome',
  ...mainScreens,
  ...dialogScreens,
  'scene',
  'scene-dialog',
  'story',
  'story-characters',
  'story-sheet',
  'remembered',
  'remembered-unit',
] as const
type Screen = (typeof screens)[number]
const only = listed('--only', screens)
const wants = (...names: Screen[]) => names.some((n) => only.includes(n))
const languages = listed('--languages', ['en', 'ja'] as const)
const themes = listed('--themes', ['light', 'dark'] as const)
type Language = 'en' | 'ja'

const REPLY = `## A walk through the old town

The lanes are narrow and the light comes in sideways in the afternoon. Three places are worth the detour:

1. **The clock tower** — climb it an hour before sunset.
2. **The covered market**, for bread and a strong coffee.
3. The river steps, where the boats come in.

\`\`\`ts
const route = ['tower', 'market', 'river']
\`\`\`

Shall I plan the rest of the day around it?`

/** One request over the host's WebSocket, as the renderer sends it. */
function invoker(
  server: Server,
): Promise<{ call: (action: string, data: unknown) => Promise<unknown>; close: () => void }> {
  const ws = new WebSocket(server.wsUrl, { headers: { origin: server.origin } })
  let seq = 0
  const pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>()
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString()) as { id?: number; status?: string; data?: unknown; error?: unknown }
    if (msg.id === undefined) return
    const waiting = pending.get(msg.id)
    if (!waiting) return
    pending.delete(msg.id)
    if (msg.status === 'success') waiting.ok(msg.data)
    else waiting.fail(new Error(JSON.stringify(msg.error)))
  })
  return new Promise((done, fail) => {
    ws.once('error', fail)
    ws.once('open', () =>
      done({
        call: (action, data) =>
          new Promise((ok, failCall) => {
            const id = ++seq
            pending.set(id, { ok, fail: failCall })
            ws.send(JSON.stringify({ id, action, data }))
          }),
        close: () => ws.close(),
      }),
    )
  })
}

type Call = (action: string, data: unknown) => Promise<unknown>

/** Two personas, before any conversation: what the first-run welcome offers. */
async function seedPersonas(call: Call): Promise<{ mioId: string; soraId: string }> {
  const mio = (await call('create_persona', {
    name: 'Mio',
    persona_text: 'A calm travel companion who likes old towns.',
    chat_model: 'openai:gpt-4o',
  })) as { id: string }
  const sora = (await call('create_persona', {
    name: 'Sora',
    persona_text: 'A careful editor.',
    chat_model: 'openai:gpt-4o',
  })) as { id: string }
  return { mioId: mio.id, soraId: sora.id }
}

/** What Mio remembers: a few units of the kinds a user meets first, so the memory panel is seen full. */
async function seedMemory(call: Call, mio: { id: string }): Promise<void> {
  const day = (d: string) => Math.floor(Date.parse(d) / 1000)
  const units: Array<{ kind: string; text: string; pin?: boolean; occurred_at?: number }> = [
    { kind: 'fact', text: 'The user is learning to bake sourdough bread.', pin: true },
    { kind: 'fact', text: 'The user prefers quiet cafés to busy restaurants.' },
    {
      kind: 'episode',
      text: 'The user said their cat Mochi knocked the starter jar off the counter; Mio suggested a lid.',
      occurred_at: day('2026-11-20T19:00:00Z'),
    },
    { kind: 'loop', text: 'Ask how the harbour trip went after the weekend.' },
  ]
  for (const u of units) await call('memory_add_unit', { persona_id: mio.id, ...u })
}

/** A conversation with a branch (two answers to one question) and a second, short conversation. */
async function seedConversations(call: Call, mio: { id: string }): Promise<{ flowId: string }> {
  const other = (await call('create_flow', { name: 'Notes for the editor', persona_id: mio.id })) as { id: string }
  await call('create_node', {
    flow_id: other.id,
    prompt: 'Can you read my draft?',
    response: 'Of course — paste it here.',
  })
  const flow = (await call('create_flow', { name: 'A day in the old town', persona_id: mio.id })) as { id: string }
  const first = (await call('create_node', {
    flow_id: flow.id,
    prompt: 'I have one free day in the old town. Where should I go?',
    response: REPLY,
    position: { x: 0, y: 0 },
  })) as { id: string }
  await call('create_node', {
    flow_id: flow.id,
    prompt: 'Yes, and somewhere quiet for lunch.',
    response: 'Try the courtyard café behind the market: shade, a short menu, and nobody hurries you.',
    parent_ids: [first.id],
    position: { x: 0, y: 380 },
  })
  await call('create_node', {
    flow_id: flow.id,
    prompt: 'Yes, but keep it cheap.',
    response: 'The market stalls do a good lunch for very little: ask for the soup of the day.',
    parent_ids: [first.id],
    position: { x: 420, y: 380 },
  })
  return { flowId: flow.id }
}

/** A reply the fake model gives once, and the turn sent for it answered before the next one goes. */
async function answered(call: Call, sent: Promise<unknown>): Promise<string> {
  const { node_id } = (await sent) as { node_id: string }
  for (;;) {
    const node = (await call('get_node', { id: node_id })) as { status: string }
    if (node.status !== 'streaming') return node_id
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A group scene: Mio and Sora in one conversation, each reply spoken by one of them. */
async function seedScene(
  call: Call,
  llm: Awaited<ReturnType<typeof startFakeLlm>>,
  ids: { mioId: string; soraId: string },
): Promise<{ flowId: string }> {
  const flow = (await call('create_flow', { name: 'Planning the harbour trip', persona_id: ids.mioId })) as {
    id: string
  }
  await call('update_flow', {
    id: flow.id,
    cast: [
      { persona_id: ids.mioId, muted: false },
      { persona_id: ids.soraId, muted: false },
    ],
    turn_order: 'addressed',
  })
  const say = (reply: string) => llm.script({ provider: 'openai', model: 'gpt-4o', reply, times: 1 })
  say('Morning! The first ferry leaves at 7:40, so we have time for coffee by the pier.')
  const first = await answered(
    call,
    call('chat_send', { flow_id: flow.id, prompt: 'Good morning, both of you. Shall we take the early ferry?' }),
  )
  say('I would rather not rush. The 9:10 boat is quieter, and the island museum opens at ten anyway.')
  const second = await answered(
    call,
    call('chat_send', { flow_id: flow.id, parent_id: first, prompt: 'Sora, what do you think?' }),
  )
  say('Fair point — the 9:10 it is. I will book a table at the harbour café for lunch.')
  await answered(call, call('chat_next_speaker', { flow_id: flow.id, parent_id: second }))
  return { flowId: flow.id }
}

/** Personas only (the welcome) or the seeded conversation open. */
async function openApp(page: Page, server: Server, flowId: string | null): Promise<void> {
  await page.addInitScript((id) => {
    localStorage.setItem('loomverse.onboardingDismissed', '1')
    if (id) localStorage.setItem('loomverse.lastFlow', id)
  }, flowId)
  await page.goto(server.url)
  await page.locator('[data-testid=connection].connection-connected').waitFor()
  await page
    .locator(flowId ? '[data-testid=conv-node]' : '[data-testid=welcome]')
    .first()
    .waitFor()
  if (flowId) await fitGraph(page)
}

/** The whole graph in view, once React Flow's fit animation has stopped. */
async function fitGraph(page: Page): Promise<void> {
  await page.locator('.react-flow__controls-fitview').click()
  await page.mouse.move(1, 799) // off the button: no hover colour in the picture
  await page.evaluate(async () => {
    ;(document.activeElement as HTMLElement | null)?.blur()
    const viewport = document.querySelector('.react-flow__viewport') as HTMLElement
    let last = ''
    let still = 0
    while (still < 5) {
      await new Promise((r) => requestAnimationFrame(r))
      const now = viewport.style.transform
      still = now === last ? still + 1 : 0
      last = now
    }
  })
}

/**
 * The dialogs of the header's More menu and of Settings, with something in each: a lorebook, a
 * connected program, an MCP server (its command waits for the user's confirmation, so nothing
 * runs). Providers come from the fake LLM's environment.
 */
async function seedDialogs(call: Call, mio: { id: string }): Promise<void> {
  const book = (await call('create_lorebook', {
    name: 'Old town',
    description: 'Places and people of the old town.',
  })) as { id: string }
  await call('create_lore_entry', {
    book_id: book.id,
    keys: ['clock tower'],
    content: 'The clock tower was rebuilt in 1952; its bell still rings at noon.',
  })
  await call('create_lore_entry', {
    book_id: book.id,
    keys: ['market', 'bread'],
    content: 'The covered market opens at seven and closes at two, except on Mondays.',
  })
  await call('attach_lorebook', { book_id: book.id, kind: 'persona', target_id: mio.id })
  await call('api_token_create', { name: 'Calendar bridge' })
  await call('api_token_create', { name: 'Home assistant', mcp_writes: true })
  await call('mcp_save_server', {
    name: 'notes',
    config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', 'notes'] },
  })
}

/** Each dialog asked for, opened as a user does (the More menu, or Settings), photographed and closed. */
async function shootDialogs(page: Page, language: Language, theme: string): Promise<void> {
  const t = words(language)
  const fromMore: Array<[Screen, string]> = [
    ['lorebooks', t.shell.cmd.lorebooks],
    ['providers', t.providers.open],
    ['programs', t.programs.open],
    ['backup', t.backup.open],
  ]
  for (const [name, label] of fromMore) {
    if (!wants(name)) continue
    await page.getByTestId('header-more').click()
    await page.getByRole('menuitem', { name: label }).click()
    await page.getByRole('dialog').waitFor()
    await page.mouse.move(1, 799)
    await shot(page, name, language, theme)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
  }
  if (wants('lorebook-book')) {
    // A book opened at an entry, its settings unfolded: the dialog as one edits a book.
    await page.getByTestId('header-more').click()
    await page.getByRole('menuitem', { name: t.shell.cmd.lorebooks }).click()
    const books = page.getByRole('dialog')
    await books.getByRole('button', { name: /Old town/ }).click()
    await books.getByText(t.lore.bookSettings).click()
    await page.mouse.move(1, 799)
    await shot(page, 'lorebook-book', language, theme)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
  }
  if (wants('tools')) {
    await page.getByTestId('header-settings').click()
    await page.getByRole('button', { name: t.mcp.open }).click()
    await page.getByRole('dialog', { name: t.mcp.title }).getByTestId('mcp-server').first().waitFor()
    await page.mouse.move(1, 799)
    await shot(page, 'tools', language, theme)
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
  }
  if (wants('mcp-resources')) {
    await page.keyboard.press('Control+k')
    await page.getByTestId('command-palette').waitFor()
    await page.keyboard.type(t.mcp.resources.open)
    await page.keyboard.press('Enter')
    await page.getByRole('dialog').waitFor()
    await shot(page, 'mcp-resources', language, theme)
    await page.keyboard.press('Escape')
  }
}

async function shot(page: Page, name: Screen, language: Language, theme: string): Promise<void> {
  if (!wants(name)) return
  // Let transitions and fonts settle: wait for the next two frames.
  await page.evaluate(() => document.fonts.ready)
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  const file = join(outDir, `${name}-${language}-${theme}.png`)
  await page.screenshot({ path: file })
  console.log(relative(process.cwd(), file))
}

async function main(): Promise<void> {
  if (!args.includes('--no-build')) {
    execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  mkdirSync(outDir, { recursive: true })
  const llm = await startFakeLlm()
  const server = await startServer({ env: llmEnv(llm) })
  const browser = await chromium.launch({
    executablePath: process.env.LOOMVERSE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  })
  const ws = await invoker(server)
  try {
    const { mioId, soraId } = await seedPersonas(ws.call)
    const combos = languages.flatMap((language) => themes.map((theme) => ({ language, theme })))
    const pageFor = async (language: Language, theme: string) => {
      await ws.call('update_settings', { language, theme })
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: language })
      return { context, page: await context.newPage() }
    }

    if (wants('welcome'))
      for (const { language, theme } of combos) {
        const { context, page } = await pageFor(language, theme)
        await openApp(page, server, null)
        await shot(page, 'welcome', language, theme)
        await context.close()
      }

    const { flowId } = await seedConversations(ws.call, { id: mioId })
    await seedMemory(ws.call, { id: mioId })
    for (const { language, theme } of wants(...mainScreens) ? combos : []) {
      const { context, page } = await pageFor(language, theme)
      const t = words(language)
      await openApp(page, server, flowId)
      await shot(page, 'main', language, theme)

      await page.keyboard.press('Control+k')
      await page.getByTestId('command-palette').waitFor()
      await page.keyboard.type(language === 'en' ? 'theme' : 'テーマ')
      await shot(page, 'palette', language, theme)
      await page.keyboard.press('Escape')

      await page.getByTestId('header-settings').click()
      await page.locator('.settings-panel').waitFor()
      await shot(page, 'settings', language, theme)
      await page.keyboard.press('Escape')

      await page.getByTestId('header-memory').click()
      await page.locator('.memory-inspector').waitFor()
      await page.getByTestId('memory-unit').first().waitFor()
      await shot(page, 'memory', language, theme)
      await page.getByTestId('memory-unit').first().click()
      await page.getByTestId('memory-reach').waitFor()
      await shot(page, 'memory-unit', language, theme)
      await page.getByTestId('header-memory').click()

      // What the next message would send, part by part, from the composer.
      await page.getByRole('button', { name: t.graph.inspectContext, exact: true }).click()
      await page.getByRole('region', { name: t.context.title }).getByTestId('context-total').waitFor()
      await shot(page, 'context', language, theme)
      await page.keyboard.press('Escape')

      await page.getByRole('tab', { name: t.conversations.worldTab }).click()
      await page.getByText(t.sidebar.title).first().waitFor()
      await shot(page, 'world', language, theme)
      // The user guide every new world has, opened as a document.
      await page.locator('li[data-item-id]').filter({ hasText: 'Loomverse' }).first().getByRole('button').click()
      await page.getByRole('dialog').waitFor()
      await shot(page, 'world-item', language, theme)
      await page.keyboard.press('Escape')
      await page.getByRole('tab', { name: t.conversations.tab }).click()

      // Search finds a word in the conversations (a side panel, like memory's).
      await page.getByTestId('header-search').click()
      const search = page.getByRole('region', { name: t.search.title })
      await search.getByLabel(t.search.keywords).fill('market')
      await search.getByLabel(t.search.keywords).press('Enter')
      await search
        .getByText(/market/i)
        .first()
        .waitFor()
      await shot(page, 'search', language, theme)
      await page.getByTestId('header-search').click()

      await page.getByTestId('header-personas').click()
      await page.getByRole('dialog').waitFor()
      await shot(page, 'personas', language, theme)
      await page.keyboard.press('Escape')
      await context.close()
    }

    if (wants(...dialogScreens)) {
      await seedDialogs(ws.call, { id: mioId })
      for (const { language, theme } of combos) {
        const { context, page } = await pageFor(language, theme)
        await openApp(page, server, flowId)
        await shootDialogs(page, language, theme)
        await context.close()
      }
    }

    // A group scene: who speaks on every reply, who speaks next in the composer, and its dialog.
    const scene = await seedScene(ws.call, llm, { mioId, soraId })
    for (const { language, theme } of wants('scene', 'scene-dialog') ? combos : []) {
      const { context, page } = await pageFor(language, theme)
      await openApp(page, server, scene.flowId)
      await page.locator('#composer-input').fill(language === 'en' ? 'Sora, ' : 'Soraさん、')
      await page.locator('#composer-input').blur()
      await shot(page, 'scene', language, theme)
      await page.getByTestId('scene-button').click()
      await page.getByRole('dialog').waitFor()
      await shot(page, 'scene-dialog', language, theme)
      await page.keyboard.press('Escape')
      await context.close()
    }

    // Asked in so many words to remember something, the persona says so, with Undo.
    for (const { language, theme } of wants('remembered', 'remembered-unit') ? combos : []) {
      const { context, page } = await pageFor(language, theme)
      await openApp(page, server, flowId)
      const ask = language === 'en' ? 'Remember that my cat is called Mochi.' : '猫の名前はモチだって覚えておいて。'
      await page.locator('#composer-input').fill(ask)
      await page.keyboard.press('Control+Enter')
      await page
        .locator('.toast')
        .filter({ hasText: language === 'en' ? 'Mochi' : 'モチ' })
        .waitFor()
      await shot(page, 'remembered', language, theme)
      // The fact in the memory panel: pinned, its source in words.
      await page.getByTestId('header-memory').click()
      const fact = page
        .getByTestId('memory-unit')
        .filter({ hasText: language === 'en' ? 'my cat is called Mochi' : 'モチ' })
      await fact
        .filter({ hasNotText: language === 'en' ? 'Remember that' : '覚えておいて' })
        .first()
        .click()
      await page.getByTestId('memory-reach').waitFor()
      await shot(page, 'remembered-unit', language, theme)
      await context.close()
    }

    // Last: opening a story makes its conversation the one a reload opens.
    const storyName = 'Harbour Lights'
    await ws.call('story_init', { name: storyName, template: 'fantasy', language: 'en' })
    for (const { language, theme } of wants('story', 'story-characters', 'story-sheet') ? combos : []) {
      const { context, page } = await pageFor(language, theme)
      const t = words(language)
      await openApp(page, server, flowId)
      await page.locator('.header-actions .btn').first().click()
      await page
        .getByRole('dialog')
        .getByRole('button', { name: new RegExp(storyName) })
        .first()
        .click()
      await page.getByRole('region', { name: new RegExp(storyName) }).waitFor()
      await page.locator('[data-testid=conv-node]').first().waitFor()
      await shot(page, 'story', language, theme)
      await page.getByRole('tab', { name: t.story.tab.sheets }).click()
      await shot(page, 'story-characters', language, theme)
      // A sheet from the list, open in the Scenario tab's editor.
      await page.getByRole('list', { name: t.story.sheetsHeading }).getByRole('button').first().click()
      await page.locator('.story-editor textarea').waitFor()
      await shot(page, 'story-sheet', language, theme)
      await context.close()
    }
  } finally {
    ws.close()
    await browser.close()
    await server.stop()
    await llm.close()
  }
}

await main()
