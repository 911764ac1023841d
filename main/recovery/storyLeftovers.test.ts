import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { Flow, Node, Story } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

// What a kill during story_init or story_save leaves (issue 37, finding 7), put right at start-up.
const start = useLlmCore({ memoryWorker: null, jobWorker: null })

const TEMP = (n: number) => `.tmp-0f0e0d0c-0b0a-4987-8654-32101234567${n}`

describe('start-up after a kill during story work', () => {
  it('gives a story killed before its opening scene that scene, and removes the temp files of story writes', async () => {
    const first = await start()
    const story = await first.call<Story>('story_init', { name: 'Half', template: 'fantasy', language: 'en' })
    const home = first.core.paths.home
    await first.core.dispose()
    // A kill between the story's row and its opening scene: the row stands nowhere, the flow is empty.
    const db = new Database(join(home, 'loomverse.db'))
    db.prepare('UPDATE stories SET current_node_id = NULL').run()
    db.close()
    const scenarios = join(home, 'scenarios')
    const project = join(scenarios, 'Half')
    // createProject's temp folder, and writeFileAtomic's temp files in the project's folders.
    mkdirSync(join(scenarios, TEMP(1), 'scenario'), { recursive: true })
    writeFileSync(join(scenarios, TEMP(1), 'scenario', '00_world_setting.md'), 'half a project')
    writeFileSync(join(project, 'logs/archives', TEMP(2)), 'half a save')
    writeFileSync(join(project, 'logs/autosaves', TEMP(3)), 'half an autosave')
    writeFileSync(join(project, 'scenario/characters', TEMP(4)), 'half a sheet')
    // Names the app never gives, and links, are left alone; nothing is followed through a link.
    writeFileSync(join(project, 'logs/archives', '.tmp-notes'), 'the user’s')
    const outside = join(home, 'outside')
    mkdirSync(join(outside, 'folder'), { recursive: true })
    writeFileSync(join(outside, TEMP(5)), 'not the app’s to remove')
    writeFileSync(join(outside, 'folder', TEMP(6)), 'not the app’s to remove')
    symlinkSync(join(outside, TEMP(5)), join(project, 'logs/archives', TEMP(7)))
    symlinkSync(join(outside, 'folder'), join(scenarios, TEMP(8)))
    symlinkSync(join(outside, 'folder'), join(project, 'logs/linked'))

    const logs: string[] = []
    const h = await start({ home, log: (m) => logs.push(m) })
    expect(h.core.recovered).toMatchObject({ temps: 4 })
    expect(readdirSync(scenarios).sort()).toEqual([TEMP(8), 'Half'])
    expect(readdirSync(join(project, 'logs/archives')).sort()).toEqual(['.tmp-notes', TEMP(7)].sort())
    expect(readdirSync(join(project, 'logs/autosaves'))).toEqual([])
    expect(readdirSync(join(project, 'scenario/characters'))).not.toContain(TEMP(4))
    expect(readFileSync(join(outside, TEMP(5)), 'utf8')).toBe('not the app’s to remove')
    expect(existsSync(join(outside, 'folder', TEMP(6)))).toBe(true)

    const now = (await h.call<{ story: Story }>('story_get', { story_id: story.id })).story
    expect(now.current_node_id).not.toBeNull()
    const flow = await h.call<Flow>('get_flow', { id: story.flow_id })
    expect(flow.nodes.map((n) => n.id)).toEqual([now.current_node_id])
    expect((await h.call<Node>('get_node', { id: now.current_node_id })).response).toContain('Crooked Lantern')
    expect(logs.join('\n')).toMatch(/1 half-made stor/)
  }, 30_000)
})
