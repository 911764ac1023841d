import { spawnSync } from 'node:child_process'
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Flow, Node, Story, StorySave } from '@shared/contract'
import { useLlmCore, type LlmHarness } from '../../tests/support/llmCore'
import { STORY_FILE_MAX_BYTES } from './scenarioFiles'

// Scenario, save and transcript files as a hostile or careless folder holds them (issue 37,
// finding 4): too big, not regular, behind a link, not UTF-8, or named twice in two Unicode forms.
const start = useLlmCore({ memoryWorker: null, jobWorker: null })

async function newStory(h: LlmHarness, name: string): Promise<{ story: Story; dir: string }> {
  const story = await h.call<Story>('story_init', { name, template: 'fantasy', language: 'en' })
  return { story, dir: join(h.core.paths.scenarios, story.name) }
}

/** Sends a turn below where the story stands and answers how it ended. */
async function turn(h: LlmHarness, story: Story, prompt: string, reply: string) {
  h.fake.script({ promptIncludes: prompt, times: 1, reply })
  const now = await h.call<{ story: Story }>('story_get', { story_id: story.id })
  const ended = h.next('chat_status', (d) => d.state === 'done' || d.state === 'failed')
  const { node_id } = await h.call<{ node_id: string }>('chat_send', {
    flow_id: story.flow_id,
    prompt,
    parent_id: now.story.current_node_id!,
  })
  const status = await ended
  return { node_id, status, node: await h.call<Node>('get_node', { id: node_id }) }
}

function refusal(h: LlmHarness, method: string, input: unknown) {
  return h.core.router.call(method, input, { transport: 'internal' })
}

describe('scenario files the app reads', () => {
  it('refuses a scenario file over the size limit by name and limit, before reading it', async () => {
    const h = await start()
    const { story, dir } = await newStory(h, 'Huge')
    // Sparse: the size is on record without a byte written.
    truncateSync(join(dir, 'scenario/00_world_setting.md'), STORY_FILE_MAX_BYTES + 1)

    const read = await refusal(h, 'story_read_file', { story_id: story.id, path: 'scenario/00_world_setting.md' })
    expect(read).toMatchObject({
      ok: false,
      error: { code: 'bad_file', message: /Huge\/scenario\/00_world_setting\.md: .*over the limit .*4 MiB/ },
    })
    // The story still opens (the file is listed, unread), and a turn says why it cannot be sent.
    const got = await h.call<{ files: Array<{ path: string; size: number }> }>('story_get', { story_id: story.id })
    expect(got.files.find((f) => f.path === 'scenario/00_world_setting.md')?.size).toBe(STORY_FILE_MAX_BYTES + 1)
    const { status, node } = await turn(h, story, 'I look around.', 'unused')
    expect(status.state).toBe('failed')
    expect(node.error).toMatch(/00_world_setting\.md: .*over the limit/)
    expect(h.fake.requests).toHaveLength(0)
  }, 30_000)

  it('reports invalid UTF-8 with the file and its line instead of replacing it', async () => {
    const h = await start()
    const { story, dir } = await newStory(h, 'Mojibake')
    writeFileSync(
      join(dir, 'scenario/01_player_character.md'),
      Buffer.concat([Buffer.from('# Player\n\nfine\n'), Buffer.from([0xc3, 0x28]), Buffer.from(' broken\n')]),
    )
    const read = await refusal(h, 'story_read_file', { story_id: story.id, path: 'scenario/01_player_character.md' })
    expect(read).toMatchObject({
      ok: false,
      error: { code: 'bad_file', message: 'Mojibake/scenario/01_player_character.md:4: is not valid UTF-8 text' },
    })
    const { status, node } = await turn(h, story, 'Hello?', 'unused')
    expect(status.state).toBe('failed')
    expect(node.error).toContain('01_player_character.md:4: is not valid UTF-8 text')
  }, 30_000)

  it.skipIf(process.platform === 'win32')(
    'never opens a FIFO as a scenario file (the read would wait for a writer forever)',
    async () => {
      const h = await start()
      const { story, dir } = await newStory(h, 'Piped')
      const rules = join(dir, 'scenario/02_ai_rules.md')
      renameSync(rules, `${rules}.bak`)
      mkfifo(rules)
      const read = await refusal(h, 'story_read_file', { story_id: story.id, path: 'scenario/02_ai_rules.md' })
      expect(read).toMatchObject({
        ok: false,
        error: { code: 'bad_file', message: /02_ai_rules\.md: is a FIFO \(named pipe\), not a regular file/ },
      })
    },
    30_000,
  )
})

describe('logs the app writes while playing', () => {
  it.skipIf(process.platform === 'win32')(
    'keeps a reply whose day transcript is a FIFO, and writes nothing into the FIFO',
    async () => {
      const logs: string[] = []
      const h = await start({ log: (m) => logs.push(m) })
      const { story, dir } = await newStory(h, 'Transcript')
      const fifo = join(dir, 'logs/transcripts', `${new Date().toISOString().slice(0, 10)}.md`)
      mkfifo(fifo)
      // A reader of our own, so an unsafe append would not block but land in the pipe, where it shows.
      const reader = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK)
      try {
        const { status, node_id } = await turn(h, story, 'I open the door.', 'It creaks.')
        expect(status.state).toBe('done')
        expect((await h.call<{ story: Story }>('story_get', { story_id: story.id })).story.current_node_id).toBe(
          node_id,
        )
        expect(pipeHolds(reader)).toBe(0)
        expect(logs.join('\n')).toMatch(/logs\/transcripts\/.*\.md: is not a regular file/)
      } finally {
        closeSync(reader)
      }
    },
    30_000,
  )

  it('refuses a turn before the model is asked when logs/autosaves is a link, and sends nothing', async () => {
    const h = await start()
    const { story, dir } = await newStory(h, 'Autosaves')
    const elsewhere = join(h.core.paths.home, 'elsewhere')
    mkdirSync(elsewhere)
    swapForLink(join(dir, 'logs/autosaves'), elsewhere)

    const { status, node } = await turn(h, story, 'I wait.', 'Time passes.')
    expect(status.state).toBe('failed')
    expect(node).toMatchObject({ response: '' })
    expect(node.error).toMatch(/logs\/autosaves.*link/)
    expect(h.fake.requests).toHaveLength(0)
    expect(readdirSync(elsewhere)).toEqual([])
  }, 30_000)

  it('refuses a save when logs/archives is a link, storing nothing, so a save is never kept but reported failed', async () => {
    const h = await start()
    const { story, dir } = await newStory(h, 'Archives')
    const elsewhere = join(h.core.paths.home, 'elsewhere')
    mkdirSync(elsewhere)
    swapForLink(join(dir, 'logs/archives'), elsewhere)

    const saved = await refusal(h, 'story_save', { story_id: story.id, node_id: story.current_node_id, name: 'one' })
    expect(saved).toMatchObject({ ok: false, error: { code: 'forbidden', message: /logs\/archives.*link/ } })
    expect(await h.call<StorySave[]>('story_saves', { story_id: story.id })).toEqual([])
    expect(readdirSync(elsewhere)).toEqual([])
  }, 30_000)
})

describe('story names', () => {
  it('keeps names in NFC and refuses one that differs from a story’s only in Unicode form or case', async () => {
    const h = await start()
    const nfd = 'Cafe\u0301'
    const { story } = await newStory(h, nfd)
    expect(story.name).toBe('Caf\u00e9')
    expect(readdirSync(h.core.paths.scenarios)).toEqual(['Caf\u00e9'])
    for (const name of ['Caf\u00e9', nfd, 'CAF\u00c9', 'CAFE\u0301']) {
      const r = await refusal(h, 'story_init', { name })
      expect(r, name).toMatchObject({ ok: false, error: { code: 'conflict', message: /exists already/ } })
    }
    // A folder made outside the app in the other form clashes too (macOS would open the same one).
    mkdirSync(join(h.core.paths.scenarios, 'The\u0301ma'))
    expect(await refusal(h, 'story_init', { name: 'Th\u00e9ma' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    })
    expect((await h.call<Flow[]>('list_flows', {})).filter((f) => f.name !== 'Caf\u00e9')).toHaveLength(0)
  }, 30_000)
})

function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path])
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`)
}

function swapForLink(folder: string, target: string): void {
  renameSync(folder, `${folder}.moved`)
  symlinkSync(target, folder)
}

/** How many bytes wait in a pipe (read without blocking). */
function pipeHolds(fd: number): number {
  try {
    return readSync(fd, Buffer.alloc(65536))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return 0
    throw e
  }
}
