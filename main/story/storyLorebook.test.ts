import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ContextPreview, LoreBook, Story } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore({ memoryWorker: null })

describe('a story’s lorebook', () => {
  it('reads scenario/lorebook/*.md (a file’s name is its key unless its front matter says) and the books attached to the story', async () => {
    const h = await start({ jobWorker: null })
    const story = await h.call<Story>('story_init', { name: 'Lantern', template: 'fantasy', language: 'en' })
    const folder = join(h.core.paths.scenarios, story.name, 'scenario/lorebook')
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'Watchtower.md'), 'The watchtower has been empty for a hundred years.\n')
    writeFileSync(
      join(folder, 'ghost.md'),
      '---\nkeys: [lantern light, ghost]\nposition: at_depth\ndepth: 0\n---\nA ghost carries the lantern at night.\n',
    )
    const attached = await h.call<LoreBook>('create_lorebook', { name: 'Aster' })
    await h.call('create_lore_entry', { book_id: attached.id, keys: ['map'], content: 'Maps of Aster lie.' })
    await h.call('attach_lorebook', { book_id: attached.id, kind: 'story', target_id: story.id })

    const now = (await h.call<{ story: Story }>('story_get', { story_id: story.id })).story
    const preview = await h.call<ContextPreview>('build_context', {
      flow_id: story.flow_id,
      parent_ids: [now.current_node_id!],
      prompt: 'I unfold the map and walk to the watchtower; is that a ghost?',
    })
    const lore = preview.parts.filter((p) => p.kind === 'lore')
    expect(lore.map((p) => [p.lore!.comment, p.lore!.reason.key])).toEqual([
      ['', 'map'],
      ['Watchtower', 'Watchtower'],
      ['ghost', 'ghost'],
    ])
    expect(preview.messages[0]!.content).toContain('The watchtower has been empty for a hundred years.')
    expect(preview.messages.at(-1)).toEqual({ role: 'system', content: 'A ghost carries the lantern at night.' })
  })
})
