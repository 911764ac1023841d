import { describe, expect, it } from 'vitest'
import type { LoreBook } from '@shared/contract'
import { stWorldInfo } from '../../tests/support/lorebooks/stWorldInfo'
import { useVizprompt } from '../../tests/support/vizpromptFixture'

const fixture = useVizprompt()
const fromWindow = { transport: 'ws' } as const

function caller() {
  const core = fixture().core()
  const call = async <T = LoreBook>(method: string, input: unknown): Promise<T> => {
    const r = await core.router.call(method, input, fromWindow)
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
    return r.value as T
  }
  const refused = async (method: string, input: unknown) => {
    const r = await core.router.call(method, input, fromWindow)
    if (r.ok) throw new Error(`${method} was accepted`)
    return r.error
  }
  return { core, call, refused }
}

describe('lorebooks through the contract', () => {
  it('makes a book, adds, edits and removes entries, and keeps them in the database', async () => {
    const { call } = caller()
    const book = await call('create_lorebook', { name: 'Kingdoms' })
    expect(book.settings.scan_depth).toBe(2)
    const added = await call('create_lore_entry', { book_id: book.id, keys: ['Eldoria'], content: 'A kingdom.' })
    expect(added.entries).toMatchObject([{ uid: 0, keys: ['Eldoria'], order: 100, position: 'before_persona' }])
    const two = await call('create_lore_entry', { book_id: book.id, keys: ['Vale'], constant: true })
    expect(two.entries.map((e) => e.uid)).toEqual([0, 1])
    const edited = await call('update_lore_entry', {
      book_id: book.id,
      uid: 0,
      content: 'A fallen kingdom.',
      sticky: 2,
    })
    expect(edited.entries[0]).toMatchObject({ content: 'A fallen kingdom.', sticky: 2, keys: ['Eldoria'] })
    await call('delete_lore_entry', { book_id: book.id, uid: 1 })
    expect((await call('get_lorebook', { id: book.id })).entries.map((e) => e.uid)).toEqual([0])
    expect(await call('list_lorebooks', {})).toMatchObject([{ id: book.id, name: 'Kingdoms', entry_count: 1 }])
    await call('delete_lorebook', { id: book.id })
    expect(await call('list_lorebooks', {})).toEqual([])
  })

  it('refuses a broken regular expression key, naming the key, and changes nothing', async () => {
    const { call, refused } = caller()
    const book = await call('create_lorebook', { name: 'b' })
    const error = await refused('create_lore_entry', { book_id: book.id, keys: ['fine', '/(unclosed/'] })
    expect(error).toMatchObject({
      code: 'bad_input',
      message: expect.stringContaining('entry.keys[1]: not a regular expression'),
    })
    expect((await call('get_lorebook', { id: book.id })).entries).toEqual([])
    expect(await refused('update_lore_entry', { book_id: book.id, uid: 9, content: 'x' })).toMatchObject({
      code: 'not_found',
    })
    expect(await refused('create_lore_entry', { book_id: book.id, probability: 150 })).toMatchObject({
      code: 'bad_input',
    })
  })

  it('attaches a book to a persona, a conversation or everything, and refuses what does not exist', async () => {
    const { call, refused } = caller()
    const book = await call('create_lorebook', { name: 'b' })
    const persona = await call<{ id: string }>('create_persona', { name: 'Mira' })
    const flow = await call<{ id: string }>('create_flow', { name: 'talk', persona_id: persona.id })
    await call('attach_lorebook', { book_id: book.id, kind: 'persona', target_id: persona.id })
    await call('attach_lorebook', { book_id: book.id, kind: 'flow', target_id: flow.id })
    const all = await call('attach_lorebook', { book_id: book.id, kind: 'global', target_id: '' })
    expect(all.attachments).toEqual([
      { kind: 'flow', target_id: flow.id },
      { kind: 'global', target_id: '' },
      { kind: 'persona', target_id: persona.id },
    ])
    expect(await refused('attach_lorebook', { book_id: book.id, kind: 'persona', target_id: 'nobody' })).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('target_id'),
    })
    const detached = await call('detach_lorebook', { book_id: book.id, kind: 'global', target_id: '' })
    expect(detached.attachments.map((a) => a.kind)).toEqual(['flow', 'persona'])
  })

  it('SillyTavern World Info → Loomverse → SillyTavern keeps every field as it was', async () => {
    const { call } = caller()
    const book = await call('import_lorebook', { name: 'Eldoria.json', text: JSON.stringify(stWorldInfo) })
    expect(book.entries.map((e) => e.uid)).toEqual([0, 7])
    expect(book.entries[0]).toMatchObject({
      keys: ['Eldoria', 'the old kingdom'],
      selective_logic: 'and_all',
      position: 'at_depth',
      role: 'user',
      match_whole_words: true,
      case_sensitive: null,
      delay_until_recursion: true,
      sticky: 3,
    })
    expect(book.entries[1]).toMatchObject({ enabled: false, constant: true, scan_depth: 6, role: 'system' })
    const exported = await call<{ json: string }>('export_lorebook', { id: book.id })
    expect(JSON.parse(exported.json)).toEqual(stWorldInfo)

    // An edited field is written anew; the others stay as they came.
    await call('update_lore_entry', { book_id: book.id, uid: 7, role: 'assistant', position: 'after_persona' })
    const again = JSON.parse((await call<{ json: string }>('export_lorebook', { id: book.id })).json)
    expect(again.entries['7']).toEqual({ ...stWorldInfo.entries['7'], role: 2, position: 1 })
  })

  it('refuses a malformed book with the field and the reason, and keeps none of it', async () => {
    const { call, refused } = caller()
    const bad = structuredClone(stWorldInfo) as { entries: Record<string, Record<string, unknown>> }
    bad.entries['7']!.probability = 'often'
    expect(await refused('import_lorebook', { name: 'bad.json', text: JSON.stringify(bad) })).toMatchObject({
      code: 'bad_file',
      message: 'bad.json: entries.7.probability: must be a number, not text "often"',
    })
    expect(
      await refused('import_lorebook', { name: 'x.json', text: '{"entries": {"0": {"content": "no keys"}}}' }),
    ).toMatchObject({
      message: 'x.json: entries.0.key: is missing',
    })
    expect(await refused('import_lorebook', { name: 'x.json', text: 'not json' })).toMatchObject({ code: 'bad_file' })
    expect(await call('list_lorebooks', {})).toEqual([])
  })

  it('reads a NovelAI lorebook and a card’s character_book', async () => {
    const { call } = caller()
    const nai = await call('import_lorebook', {
      name: 'world.lorebook',
      text: JSON.stringify({
        lorebookVersion: 5,
        entries: [
          {
            displayName: 'Harbor',
            text: 'The harbor smells of tar.',
            keys: ['harbor', '/docks?/i'],
            enabled: true,
            searchRange: 1000,
            contextConfig: { budgetPriority: 300 },
          },
          { displayName: 'Always', text: 'It is winter.', keys: [], forceActivation: true },
        ],
        settings: { orderByKeyLocations: false },
      }),
    })
    expect(nai.entries).toMatchObject([
      { comment: 'Harbor', keys: ['harbor', '/docks?/i'], content: 'The harbor smells of tar.', order: 300 },
      { comment: 'Always', constant: true },
    ])
    const card = await call('import_lorebook', {
      name: 'card.json',
      text: JSON.stringify({
        spec: 'chara_card_v2',
        data: {
          name: 'Mira',
          character_book: {
            name: 'Mira’s world',
            scan_depth: 5,
            entries: [
              {
                keys: ['tower'],
                content: 'Mira lives in a tower.',
                insertion_order: 50,
                enabled: true,
                position: 'after_char',
                extensions: { sticky: 2, selectiveLogic: 2 },
              },
            ],
          },
        },
      }),
    })
    expect(card.name).toBe('Mira’s world')
    expect(card.settings.scan_depth).toBe(5)
    expect(card.entries[0]).toMatchObject({
      keys: ['tower'],
      order: 50,
      position: 'after_persona',
      sticky: 2,
      selective_logic: 'not_any',
    })
  })

  it('an Author’s Note of a conversation falls back to its persona’s', async () => {
    const { call } = caller()
    const persona = await call<{ id: string }>('create_persona', { name: 'Mira' })
    const flow = await call<{ id: string }>('create_flow', { name: 'talk', persona_id: persona.id })
    expect(await call('get_authors_note', { kind: 'flow', target_id: flow.id })).toMatchObject({
      text: '',
      from: 'none',
    })
    await call('set_authors_note', {
      kind: 'persona',
      target_id: persona.id,
      text: 'Keep it tense.',
      depth: 2,
      every: 1,
      role: 'system',
    })
    expect(await call('get_authors_note', { kind: 'flow', target_id: flow.id })).toMatchObject({
      text: 'Keep it tense.',
      from: 'persona',
    })
    await call('set_authors_note', {
      kind: 'flow',
      target_id: flow.id,
      text: 'Rain.',
      depth: 0,
      every: 3,
      role: 'user',
    })
    expect(await call('get_authors_note', { kind: 'flow', target_id: flow.id })).toMatchObject({
      text: 'Rain.',
      every: 3,
      from: 'own',
    })
    await call('set_authors_note', { kind: 'flow', target_id: flow.id, text: '', depth: 0, every: 3, role: 'user' })
    expect(await call('get_authors_note', { kind: 'flow', target_id: flow.id })).toMatchObject({ from: 'persona' })
  })
})
