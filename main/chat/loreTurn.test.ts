import { describe, expect, it } from 'vitest'
import type { ContextPart, ContextPreview, Flow, LoreBook, Node, Persona } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

type Harness = Awaited<ReturnType<typeof start>>
type Sent = { messages: Array<{ role: string; content: string }> }

async function turn(h: Harness, flowId: string, parentId: string | null, prompt: string) {
  h.fake.script({ provider: 'openai', reply: 'As you wish.' })
  const { node_id } = await h.call<{ node_id: string }>('chat_send', {
    flow_id: flowId,
    prompt,
    ...(parentId ? { parent_id: parentId } : {}),
  })
  await h.next('chat_status', (s) => s.node_id === node_id && s.state === 'done')
  const sent = await h.call<{ context: { parts: ContextPart[] } }>('get_sent_context', { node_id })
  const request = h.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as Sent
  return { nodeId: node_id, parts: sent.context.parts, messages: request.messages }
}

async function setUp(h: Harness) {
  const persona = await h.call<Persona>('create_persona', {
    name: 'Mira',
    persona_text: '{{char}} is a knight who serves {{user}}.',
  })
  await h.call('update_settings', { user: { name: 'Ken', description: '' } })
  const flow = await h.call<Flow>('create_flow', { name: 'quest', persona_id: persona.id })
  const book = await h.call<LoreBook>('create_lorebook', { name: 'Realm' })
  const add = (fields: object) => h.call<LoreBook>('create_lore_entry', { book_id: book.id, ...fields })
  await add({ keys: ['Eldoria'], comment: 'Eldoria', content: '{{char}} was born in Eldoria.', sticky: 1 })
  await add({
    keys: ['dragon'],
    comment: 'Dragons',
    content: 'Dragons fear silver.',
    position: 'at_depth',
    depth: 0,
    role: 'system',
  })
  await add({ keys: ['castle'], comment: 'Castle', content: 'The castle is empty.' })
  await h.call('attach_lorebook', { book_id: book.id, kind: 'persona', target_id: persona.id })
  return { persona, flow, book }
}

describe('lorebooks in a chat turn', () => {
  it('puts fired entries where they belong, says why in the sent context, and keeps a sticky one on the next turn', async () => {
    const h = await start()
    const { flow, book } = await setUp(h)

    const first = await turn(h, flow.id, null, 'Tell me of Eldoria and the dragon.')
    const system = first.messages[0]!.content
    expect(system).toContain('Mira was born in Eldoria.')
    expect(system).toContain('Mira is a knight who serves Ken.')
    expect(system.indexOf('Mira was born in Eldoria.')).toBeLessThan(system.indexOf('Mira is a knight'))
    expect(system).not.toContain('The castle is empty.')
    // Depth 0: after the prompt.
    expect(first.messages.at(-1)).toEqual({ role: 'system', content: 'Dragons fear silver.' })
    const lore = first.parts.filter((p) => p.kind === 'lore')
    expect(lore.map((p) => p.lore)).toEqual([
      {
        book_id: book.id,
        book_name: 'Realm',
        uid: 0,
        comment: 'Eldoria',
        reason: { kind: 'key', key: 'Eldoria', message: 0 },
        position: 'before_persona',
      },
      {
        book_id: book.id,
        book_name: 'Realm',
        uid: 1,
        comment: 'Dragons',
        reason: { kind: 'key', key: 'dragon', message: 0 },
        position: 'at_depth',
      },
    ])

    // The book scans two messages by default, the new prompt and the reply before it: neither
    // names a key now, and only the sticky entry stays, for one turn.
    const second = await turn(h, flow.id, first.nodeId, 'Go on.')
    expect(second.parts.filter((p) => p.kind === 'lore').map((p) => p.lore!.reason)).toEqual([
      { kind: 'sticky', key: null, message: null },
    ])
    const third = await turn(h, flow.id, second.nodeId, 'And then?')
    expect(third.parts.filter((p) => p.kind === 'lore')).toEqual([])
  })

  it('a branch from before an entry fired does not inherit its stickiness', async () => {
    const h = await start()
    const { flow } = await setUp(h)
    const root = await h.call<Node>('create_node', { flow_id: flow.id, prompt: 'Hello', response: 'Hi.' })
    const fired = await turn(h, flow.id, root.id, 'Eldoria?')
    expect(fired.parts.some((p) => p.lore?.comment === 'Eldoria')).toBe(true)
    const sibling = await turn(h, flow.id, root.id, 'Something else.')
    expect(sibling.parts.filter((p) => p.kind === 'lore')).toEqual([])
  })

  it('the Author’s Note goes in at its depth every N turns and shows in the sent context', async () => {
    const h = await start()
    const { flow } = await setUp(h)
    await h.call('set_authors_note', {
      kind: 'flow',
      target_id: flow.id,
      text: '[Style: terse, {{user}} is watching]',
      depth: 1,
      every: 2,
      role: 'system',
    })
    const one = await turn(h, flow.id, null, 'Hi.')
    expect(one.parts.some((p) => p.kind === 'authors_note')).toBe(false)
    const two = await turn(h, flow.id, one.nodeId, 'Hi again.')
    expect(two.parts.find((p) => p.kind === 'authors_note')).toMatchObject({
      text: '[Style: terse, Ken is watching]',
      depth: 1,
    })
    // Depth 1: just above the prompt.
    expect(two.messages.at(-2)).toEqual({ role: 'system', content: '[Style: terse, Ken is watching]' })
    expect(two.messages.at(-1)).toEqual({ role: 'user', content: 'Hi again.' })
  })

  it('a book imported with a key that backtracks for ever still lets the turn through, with its other entries', async () => {
    const h = await start()
    const { persona, flow } = await setUp(h)
    // A World Info file as one is shared: (a+)+$ against a run of a's and a b tries 2^n ways.
    const text = JSON.stringify({
      entries: {
        '0': { uid: 0, key: ['/(a+)+$/'], content: 'Never reached.' },
        '1': { uid: 1, key: ['scream'], content: 'Screams echo in the keep.' },
      },
    })
    const hostile = await h.call<LoreBook>('import_lorebook', { name: 'shared.json', text })
    await h.call('attach_lorebook', { book_id: hostile.id, kind: 'persona', target_id: persona.id })

    const answered = await turn(h, flow.id, null, `A scream: ${'a'.repeat(48)}b!`)
    expect(answered.messages[0]!.content).toContain('Screams echo in the keep.')
    expect(answered.messages[0]!.content).not.toContain('Never reached.')
    // The user is told: the inspector's context of that turn and the book's editor name the key left out.
    const skipped = { book_id: hostile.id, book_name: 'shared', uid: 0, comment: '', key: '/(a+)+$/' }
    const sent = await h.call<{ context: ContextPreview }>('get_sent_context', { node_id: answered.nodeId })
    expect(sent.context.skipped_lore_keys).toEqual([skipped])
    // The book still reads, and the next turn is answered too.
    expect(await h.call<LoreBook>('get_lorebook', { id: hostile.id })).toMatchObject({
      name: 'shared',
      skipped_keys: [{ uid: 0, key: '/(a+)+$/' }],
    })
    const again = await turn(h, flow.id, answered.nodeId, 'Another scream, aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab')
    expect(again.messages[0]!.content).toContain('Screams echo in the keep.')
    const preview = await h.call<ContextPreview>('build_context', {
      flow_id: flow.id,
      parent_ids: [again.nodeId],
      prompt: 'hello',
    })
    expect(preview.skipped_lore_keys).toEqual([skipped])
    // Once the key is edited, it is tried afresh: nothing is said about the new one.
    await h.call('update_lore_entry', { book_id: hostile.id, uid: 0, keys: ['/keep/'] })
    expect((await h.call<LoreBook>('get_lorebook', { id: hostile.id })).skipped_keys).toBeUndefined()
  })
})
