import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type {
  ContextPreview,
  Flow,
  Node,
  SheetVersion,
  Story,
  StoryFile,
  StorySave,
  StorySummary,
} from '@shared/contract'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { sourceWorker } from '../../tests/support/sourceWorker'

// Story mode against a real core: a temp home, real SQLite, the job worker, and the fake LLM
// over real HTTP. The memory worker is left out: these tests count the story's own model calls.
const start = useLlmCore({ memoryWorker: null })

async function newStory(h: LlmHarness, input: Record<string, unknown>): Promise<{ story: Story; dir: string }> {
  const story = await h.call<Story>('story_init', input)
  return { story, dir: join(h.core.paths.scenarios, story.name) }
}

/** Plays one turn below where the story stands and waits for the reply to land. */
async function play(h: LlmHarness, story: Story, prompt: string, reply: string, parentId?: string): Promise<string> {
  h.fake.script({ promptIncludes: prompt, times: 1, reply })
  const now = await h.call<{ story: Story }>('story_get', { story_id: story.id })
  const done = h.next('chat_status', (d) => d.state === 'done' || d.state === 'failed')
  const { node_id } = await h.call<{ node_id: string }>('chat_send', {
    flow_id: story.flow_id,
    prompt,
    parent_id: parentId ?? now.story.current_node_id!,
  })
  expect(await done).toMatchObject({ node_id, state: 'done' })
  return node_id
}

/** A story that summarises after every two turns and keeps one turn word for word. */
function summariseOften(dir: string): void {
  writeFileSync(
    join(dir, '.storygamesetting.json'),
    JSON.stringify({ summarizationTriggerMessages: 4, shortTermTurns: 1, models: {} }),
  )
}

describe('story projects (seed F-001, F-002)', () => {
  it('creates the seed’s layout from a Japanese template, with its game master, flow and opening scene', async () => {
    const h = await start({ jobWorker: null })
    const { story, dir } = await newStory(h, { name: '霧の国', template: 'fantasy', language: 'ja' })

    for (const folder of [
      'logs/autosaves',
      'logs/archives',
      'logs/transcripts',
      'exports',
      'summaries',
      'scenario/characters',
    ])
      expect(existsSync(join(dir, folder)), folder).toBe(true)
    const scenario = readdirSync(join(dir, 'scenario')).sort()
    expect(scenario).toEqual([
      '00_world_setting.md',
      '01_player_character.md',
      '02_ai_rules.md',
      '03_opening_scene.md',
      'characters',
      'prompts',
    ])
    expect(readdirSync(join(dir, 'scenario/prompts')).sort()).toEqual([
      'character_generation_prompt.md',
      'character_update_prompt.md',
      'log_digest_prompt.md',
      'summarization_prompt.md',
    ])
    expect(readFileSync(join(dir, 'scenario/00_world_setting.md'), 'utf8')).toContain('アステル王国')
    expect(JSON.parse(readFileSync(join(dir, '.storygamesetting.json'), 'utf8'))).toMatchObject({
      summarizationTriggerMessages: 20,
      shortTermTurns: 6,
    })
    expect(JSON.parse(readFileSync(join(dir, 'summaries/latest_summary.json'), 'utf8'))).toMatchObject({ summary: '' })
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('logs/autosaves/')
    expect(story.characters).toEqual(['innkeeper_bram.md', 'mira.md'])

    // Play starts at the opening scene: the flow's first node, spoken by the game master.
    const flow = await h.call<Flow>('get_flow', { id: story.flow_id })
    expect(flow.persona_id).toBe(story.persona_id)
    expect(flow.nodes).toHaveLength(1)
    const opening = await h.call<Node>('get_node', { id: story.current_node_id })
    expect(opening.response).toContain('曲がり灯')
    expect(opening.response).not.toMatch(/^#/)
  })

  it('writes an English template when asked, and lists the story', async () => {
    const h = await start({ jobWorker: null })
    const { story, dir } = await newStory(h, { name: 'Seiran', template: 'school', language: 'en' })
    expect(readFileSync(join(dir, 'scenario/03_opening_scene.md'), 'utf8')).toContain('first day at Seiran')
    expect(readFileSync(join(dir, 'scenario/prompts/summarization_prompt.md'), 'utf8')).toContain('{{turns}}')
    expect((await h.call<Story[]>('story_list', {})).map((s) => s.id)).toEqual([story.id])
  })

  it('refuses hostile or taken names with the reason, creating nothing', async () => {
    const h = await start({ jobWorker: null })
    await newStory(h, { name: 'Taken' })
    const refused: Array<[string, RegExp]> = [
      ['', /needs a name|too_small|at least/i],
      ['a/b', /cannot contain \//],
      ['a\\b', /cannot contain \//],
      ['..', /\.\./],
      ['x..y', /\.\./],
      ['CON', /reserved by Windows/],
      ['lpt1.txt', /reserved by Windows/],
      ['name.', /end with a dot/],
      ['.hidden', /start with a dot/],
      ['a:b', /cannot contain/],
      ['taken', /exists already/],
      ['broken \ud800 name', /unpaired surrogate/],
    ]
    for (const [name, why] of refused) {
      const r = await h.core.router.call('story_init', { name }, { transport: 'internal' })
      expect(r.ok, name).toBe(false)
      if (!r.ok) expect(r.error.message, name).toMatch(why)
    }
    expect(readdirSync(h.core.paths.scenarios)).toEqual(['Taken'])
    // A project folder removed outside the app does not hide the list, and says what is missing.
    rmSync(join(h.core.paths.scenarios, 'Taken'), { recursive: true })
    const [taken] = await h.call<Story[]>('story_list', {})
    expect(taken).toMatchObject({ name: 'Taken', characters: [] })
    const gone = await h.core.router.call('story_get', { story_id: taken!.id }, { transport: 'internal' })
    expect(gone).toMatchObject({ ok: false, error: { code: 'not_found', message: /folder Taken is missing/ } })
    expect(await h.call<Story[]>('story_list', {})).toHaveLength(1)
    expect((await h.call<Flow[]>('list_flows', {})).filter((f) => f.name !== 'Taken')).toHaveLength(0)
  })

  it('forks the scenario into a new project without following links out of it', async () => {
    const h = await start({ jobWorker: null })
    const { story, dir } = await newStory(h, { name: 'Original', template: 'fantasy', language: 'en' })
    writeFileSync(join(h.core.paths.home, 'secret.md'), 'outside the project')
    symlinkSync(join(h.core.paths.home, 'secret.md'), join(dir, 'scenario/characters/leak.md'))
    writeFileSync(join(dir, 'scenario/characters/mira.md'), '# Mira\n\nNow a queen.\n')

    const fork = await h.call<Story>('story_fork', { story_id: story.id, name: 'What if' })
    const forkDir = join(h.core.paths.scenarios, 'What if')
    expect(readFileSync(join(forkDir, 'scenario/characters/mira.md'), 'utf8')).toContain('Now a queen.')
    expect(existsSync(join(forkDir, 'scenario/characters/leak.md'))).toBe(false)
    expect(existsSync(join(forkDir, 'logs/transcripts'))).toBe(true)
    expect(fork.flow_id).not.toBe(story.flow_id)
    // A link inside a scenario is never read through, from the app either.
    const r = await h.core.router.call(
      'story_read_file',
      { story_id: story.id, path: 'scenario/characters/leak.md' },
      { transport: 'internal' },
    )
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    const escape = await h.core.router.call(
      'story_read_file',
      { story_id: story.id, path: 'scenario/../../secret.md' },
      { transport: 'internal' },
    )
    expect(escape.ok).toBe(false)
  })
})

describe('playing a story (seed F-003, F-004, F-007–F-010)', () => {
  it('sends the scenario and where play stands; autosaves, keeps a transcript, undoes, saves and loads', async () => {
    const h = await start({ jobWorker: null })
    const { story, dir } = await newStory(h, { name: 'Lantern', template: 'fantasy', language: 'en' })
    const first = await play(h, story, 'I unfold the map.', 'The map shows the old watchtower.')

    const sent = await h.call<{ context: ContextPreview }>('get_sent_context', { node_id: first })
    const kinds = sent.context.parts.map((p) => p.kind)
    expect(kinds.filter((k) => k === 'scenario')).toHaveLength(5) // world, player, two characters, rules
    const system = sent.context.messages[0]!.content
    expect(system).toContain('Kingdom of Aster')
    expect(system).toContain('# Mira')
    expect(system).toContain('Rules for the game master')
    expect(sent.context.messages.at(-2)).toMatchObject({ role: 'assistant' }) // the opening scene
    expect(sent.context.total_tokens).toBeLessThanOrEqual(sent.context.budget)

    let now = (await h.call<{ story: Story }>('story_get', { story_id: story.id })).story
    expect(now.current_node_id).toBe(first)
    expect(JSON.parse(readFileSync(join(dir, 'logs/autosaves/autosave.json'), 'utf8'))).toMatchObject({
      node_id: first,
    })
    const transcripts = readdirSync(join(dir, 'logs/transcripts'))
    expect(readFileSync(join(dir, 'logs/transcripts', transcripts[0]!), 'utf8')).toContain('> I unfold the map.')

    const second = await play(h, story, 'I head for the tower.', 'The door is ajar.')
    const save = await h.call<StorySave>('story_save', { story_id: story.id, node_id: second, name: 'At the tower' })
    expect(save).toMatchObject({ name: 'At the tower', preview: 'The door is ajar.', turn: 2 })
    const archived = readdirSync(join(dir, 'logs/archives'))
    expect(archived).toHaveLength(1)
    expect(JSON.parse(readFileSync(join(dir, 'logs/archives', archived[0]!), 'utf8'))).toMatchObject({
      save: 'At the tower',
      node_id: second,
      history: [
        { role: 'assistant', content: expect.stringContaining('Crooked Lantern') },
        { role: 'user', content: 'I unfold the map.' },
        { role: 'assistant', content: 'The map shows the old watchtower.' },
        { role: 'user', content: 'I head for the tower.' },
        { role: 'assistant', content: 'The door is ajar.' },
      ],
    })

    now = await h.call<Story>('story_undo', { story_id: story.id })
    expect(now.current_node_id).toBe(first)
    expect((await h.call<Flow>('get_flow', { id: story.flow_id })).nodes).toHaveLength(3) // the undone turn stays
    now = await h.call<Story>('story_redo', { story_id: story.id })
    expect(now.current_node_id).toBe(second)
    await h.call('story_undo', { story_id: story.id })
    // Playing on after an undo makes a branch; loading the save goes back to the other one.
    const branch = await play(h, story, 'I go back to the inn instead.', 'Bram waves.')
    expect((await h.call<{ story: Story }>('story_get', { story_id: story.id })).story.current_node_id).toBe(branch)
    expect(await h.call<StorySave[]>('story_saves', { story_id: story.id })).toHaveLength(1)
    now = await h.call<Story>('story_load', { story_id: story.id, save_id: save.id })
    expect(now.current_node_id).toBe(second)

    await h.call('story_undo', { story_id: story.id })
    await h.call('story_undo', { story_id: story.id })
    const stuck = await h.core.router.call('story_undo', { story_id: story.id }, { transport: 'internal' })
    expect(stuck).toMatchObject({ ok: false, error: { code: 'conflict', message: /where the story begins/ } })

    const exported = await h.call<{ file: string; markdown: string; turns: number }>('export_markdown', {
      flow_id: story.flow_id,
      node_id: second,
    })
    expect(exported.file).toMatch(/^scenarios\/Lantern\/exports\/Lantern-\d{8}-\d{6}\.md$/)
    const markdown = readFileSync(join(h.core.paths.home, exported.file), 'utf8')
    expect(markdown).toBe(exported.markdown)
    expect(markdown).toMatch(/^# Lantern\n/)
    expect(markdown.indexOf('> I unfold the map.')).toBeLessThan(markdown.indexOf('> I head for the tower.'))
    expect(markdown).not.toContain('back to the inn')
    expect(exported.turns).toBe(3)
  })

  it('takes a player’s turn only in the story’s own conversation', async () => {
    const h = await start({ jobWorker: null })
    const { story } = await newStory(h, { name: 'Harbour', template: 'blank', language: 'en' })
    const other = await h.call<Flow>('create_flow', { name: 'Chat with Sora' })
    const otherRoot = await h.call<Node>('create_node', {
      flow_id: other.id,
      prompt: 'hello',
      response: 'hi',
    })
    const before = (await h.call<Flow>('get_flow', { id: other.id })).nodes.length
    const refuse = (input: Record<string, unknown>) =>
      h.core.router.call(
        'story_send',
        { story_id: story.id, prompt: 'I open the door.', ...input },
        { transport: 'internal' },
      )

    // The window showed another conversation: refused, and neither conversation changes.
    expect(await refuse({ flow_id: other.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: /conversation of the story "Harbour"/ },
    })
    // A node of another conversation is no place for the story's turn either.
    expect(await refuse({ flow_id: story.flow_id, parent_id: otherRoot.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
    expect((await h.call<Flow>('get_flow', { id: other.id })).nodes).toHaveLength(before)
    expect((await h.call<Flow>('get_flow', { id: story.flow_id })).nodes).toHaveLength(1) // the opening scene

    // Without a parent the turn goes below where play stands, in the story's flow.
    h.fake.script({ promptIncludes: 'I open the door.', times: 1, reply: 'The hinges creak.' })
    const done = h.next('chat_status', (d) => d.state === 'done' || d.state === 'failed')
    const { node_id } = await h.call<{ node_id: string }>('story_send', {
      story_id: story.id,
      flow_id: story.flow_id,
      prompt: 'I open the door.',
    })
    expect(await done).toMatchObject({ node_id, state: 'done' })
    const flow = await h.call<Flow>('get_flow', { id: story.flow_id })
    expect(flow.connections).toContainEqual({ from: story.current_node_id, to: node_id })
    expect((await h.call<{ story: Story }>('story_get', { story_id: story.id })).story.current_node_id).toBe(node_id)
  })

  it('detects an edit made outside the app and refuses to overwrite it', async () => {
    const h = await start({ jobWorker: null })
    const { story, dir } = await newStory(h, { name: 'Edits', template: 'blank', language: 'en' })
    const path = 'scenario/00_world_setting.md'
    const opened = await h.call<{ hash: string }>('story_read_file', { story_id: story.id, path })
    await h.call('story_get', { story_id: story.id }) // a window watches the project from here on

    const announced = h.next('story_file_changed', (e) => e.path === path && e.source === 'external')
    writeFileSync(join(dir, path), '# World\n\nEdited in another editor.\n')
    expect(await announced).toMatchObject({ story_id: story.id })

    const r = await h.core.router.call(
      'story_update_file',
      { story_id: story.id, path, content: '# World\n\nMine.\n', base_hash: opened.hash },
      { transport: 'internal' },
    )
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict', message: /changed outside the editor/ } })
    expect(readFileSync(join(dir, path), 'utf8')).toContain('another editor')

    const fresh = await h.call<{ hash: string }>('story_read_file', { story_id: story.id, path })
    const written = await h.call<StoryFile>('story_update_file', {
      story_id: story.id,
      path,
      content: '# World\n\nBoth.\n',
      base_hash: fresh.hash,
    })
    expect(readFileSync(join(dir, path), 'utf8')).toBe('# World\n\nBoth.\n')
    expect(written.hash).not.toBe(fresh.hash)
  })
})

describe('the story’s memory (seed F-005, F-006, F-011)', () => {
  it('folds older turns into a summary that belongs to its branch, then updates each sheet as a reviewable version', async () => {
    const h = await start({ jobWorker: sourceWorker() })
    const { story, dir } = await newStory(h, { name: 'Memory', template: 'fantasy', language: 'en' })
    summariseOften(dir)
    h.fake.script({ promptIncludes: 'You keep the record', reply: 'Rowan met Mira and took the map.' })
    h.fake.script({
      promptIncludes: 'character sheet of mira',
      reply: [
        '```markdown',
        '# Mira',
        '',
        '## Appearance',
        'Hooded, grey eyes, a burn scar across her left hand.',
        '',
        '## Personality',
        'Guarded, quick-witted, loyal once trust is earned.',
        '',
        '## Speech',
        'Short sentences. Never says her family name.',
        '',
        '## Relationships',
        'Has given Rowan the map.',
        '',
        '## Current state',
        'Travelling with Rowan.',
        '```',
      ].join('\n'),
    })
    h.fake.script({ promptIncludes: 'character sheet of innkeeper_bram', reply: 'Sorry, I cannot help with that.' })

    const a = await play(h, story, 'I take the map.', 'Mira nods.')
    const sheetsDone = h.next(
      'job_progress',
      (p) => p.label === 'Updating character sheets' && p.state !== 'running' && p.state !== 'queued',
    )
    const b = await play(h, story, 'I ask her name.', 'She says: Mira.')
    await sheetsDone

    const summary = await h.call<StorySummary>('story_summary', { story_id: story.id, node_id: b })
    expect(summary).toMatchObject({ node_id: b, text: 'Rowan met Mira and took the map.', turns: 2, path_turns: 3 })
    const folded = JSON.stringify(
      h.fake.requests.find((r) => JSON.stringify(r.body).includes('You keep the record'))!.body,
    )
    expect(folded).toContain('I take the map.')
    expect(folded).not.toContain('I ask her name.') // the newest turn stays word for word
    expect(JSON.parse(readFileSync(join(dir, 'summaries/latest_summary.json'), 'utf8'))).toMatchObject({
      summary: 'Rowan met Mira and took the map.',
      node_id: b,
    })

    // The next turn's context: the summary instead of the folded turns.
    const c = await play(h, story, 'We leave together.', 'The road is long.')
    const sent = (await h.call<{ context: ContextPreview }>('get_sent_context', { node_id: c })).context
    expect(sent.parts.find((p) => p.kind === 'story_summary')?.text).toContain('Rowan met Mira')
    const turns = sent.parts.filter((p) => p.kind === 'recent_turn' || p.kind === 'parent').map((p) => p.text)
    expect(turns.join('\n')).not.toContain('I take the map.')
    expect(turns.join('\n')).toContain('I ask her name.')
    expect(sent.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'I ask her name.',
      'We leave together.',
    ])

    // Another branch from before the summary does not know it.
    const other = await play(h, story, 'I refuse the map.', 'Mira leaves.', a)
    const otherSent = (await h.call<{ context: ContextPreview }>('get_sent_context', { node_id: other })).context
    expect(otherSent.parts.some((p) => p.kind === 'story_summary')).toBe(false)
    expect(await h.call('story_summary', { story_id: story.id, node_id: other })).toBeNull()

    // Sheets: Mira's changed through an unreviewed version; Bram's refusal changed nothing and says why.
    const versions = await h.call<SheetVersion[]>('story_sheet_versions', { story_id: story.id })
    const mira = versions.find((v) => v.path === 'scenario/characters/mira.md')!
    expect(mira).toMatchObject({ reason: 'summary', status: 'unreviewed', node_id: b })
    expect(readFileSync(join(dir, mira.path), 'utf8')).toContain('Travelling with Rowan.')
    const bram = versions.find((v) => v.path === 'scenario/characters/innkeeper_bram.md')!
    expect(bram).toMatchObject({ status: 'refused', note: /no Markdown heading/ })
    expect(readFileSync(join(dir, bram.path), 'utf8')).toContain('Serving the evening crowd.')

    // Reverting gives the sheet its words back, as a version of its own.
    const reverted = await h.call<SheetVersion>('story_sheet_review', {
      story_id: story.id,
      version_id: mira.id,
      action: 'revert',
    })
    expect(reverted.status).toBe('reverted')
    expect(readFileSync(join(dir, mira.path), 'utf8')).toBe(mira.before)
    const after = await h.call<SheetVersion[]>('story_sheet_versions', { story_id: story.id, path: mira.path })
    expect(after[0]).toMatchObject({ reason: 'revert', after: mira.before })
  })

  it('forks from a node with the path and the summary valid there', async () => {
    const h = await start({ jobWorker: sourceWorker() })
    const { story, dir } = await newStory(h, { name: 'Roots', template: 'blank', language: 'en' })
    summariseOften(dir)
    h.fake.script({ promptIncludes: 'You keep the record', reply: 'Two things happened.' })
    h.fake.script({
      promptIncludes: 'character sheet',
      reply: '# Character\n\nUnchanged enough.\n\n## Current state\nok',
    })
    await play(h, story, 'one', 'uno')
    const summarised = h.next('job_progress', (p) => p.label === 'Updating the story so far' && p.state === 'done')
    const b = await play(h, story, 'two', 'dos')
    await summarised

    const fork = await h.call<Story>('story_fork', { story_id: story.id, name: 'Roots IF', from_node_id: b })
    expect(fork.current_node_id).toBe(b)
    expect((await h.call<Flow>('get_flow', { id: fork.flow_id })).nodes).toHaveLength(3)
    expect(await h.call('story_summary', { story_id: fork.id, node_id: b })).toMatchObject({
      text: 'Two things happened.',
    })
  })

  it('writes a character sheet from the log for a name the user chose', async () => {
    const h = await start({ jobWorker: sourceWorker() })
    const { story, dir } = await newStory(h, { name: 'Cast', template: 'blank', language: 'en' })
    await play(h, story, 'A stranger called Kai enters.', 'Kai bows deeply and smiles.')
    h.fake.script({ promptIncludes: 'Write a character sheet', reply: '# Kai\n\n## Personality\nPolite.\n' })
    const done = h.next('job_progress', (p) => p.label === 'Writing a character sheet' && p.state === 'done')
    const { path } = await h.call<{ path: string }>('story_generate_character', { story_id: story.id, name: 'Kai' })
    await done
    expect(path).toBe('scenario/characters/kai.md')
    expect(readFileSync(join(dir, path), 'utf8')).toContain('Polite.')
    const asked = JSON.stringify(h.fake.requests.at(-1)!.body)
    expect(asked).toContain('Kai bows deeply')
    expect((await h.call<{ story: Story }>('story_get', { story_id: story.id })).story.characters).toContain('kai.md')
  })
})
