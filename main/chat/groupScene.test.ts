import { describe, expect, it } from 'vitest'
import type { ContextPreview, Flow, LoreBook, MemoryUnit, Node, Persona } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

type Harness = Awaited<ReturnType<typeof start>>

async function scene(h: Harness, turnOrder: 'manual' | 'round_robin' | 'addressed' = 'addressed') {
  await h.call('update_settings', { user: { name: 'Ken', description: '' } })
  const alice = await h.call<Persona>('create_persona', { name: 'Alice', persona_text: 'Alice is a cartographer.' })
  const bob = await h.call<Persona>('create_persona', { name: 'Bob', persona_text: 'Bob is a sailor.' })
  const flow = await h.call<Flow>('create_flow', { name: 'harbour', persona_id: alice.id })
  const updated = await h.call<Flow>('update_flow', {
    id: flow.id,
    cast: [
      { persona_id: alice.id, muted: false },
      { persona_id: bob.id, muted: false },
    ],
    turn_order: turnOrder,
  })
  return { alice, bob, flow: updated }
}

/** Waits for the reply, then reads the node and what was sent for it. */
async function answered(h: Harness, nodeId: string) {
  await h.next('chat_status', (s) => s.node_id === nodeId && ['done', 'failed'].includes(s.state))
  const node = await h.call<Node>('get_node', { id: nodeId })
  const sent = await h.call<{ context: ContextPreview }>('get_sent_context', { node_id: nodeId })
  return { node, context: sent.context, system: sent.context.messages[0]!.content }
}

async function send(h: Harness, flowId: string, prompt: string, parentId?: string, reply = 'Aye.') {
  h.fake.script({ provider: 'openai', reply, times: 1 })
  const { node_id } = await h.call<{ node_id: string }>('chat_send', {
    flow_id: flowId,
    prompt,
    ...(parentId ? { parent_id: parentId } : {}),
  })
  return answered(h, node_id)
}

describe('group scenes', () => {
  it('keeps its cast and turn order on the flow; fewer than two members make a plain conversation again', async () => {
    const h = await start()
    const { alice, bob, flow } = await scene(h, 'round_robin')
    expect(flow.cast).toEqual([
      { persona_id: alice.id, muted: false },
      { persona_id: bob.id, muted: false },
    ])
    expect(flow.turn_order).toBe('round_robin')
    // The flow's persona joins the cast's first place when it was not a member.
    const moved = await h.call<Flow>('update_flow', { id: flow.id, cast: [{ persona_id: bob.id, muted: false }] })
    expect(moved.cast).toBeUndefined()
    expect(moved.persona_id).toBe(bob.id)
  })

  it('answers by the addressed member, with only its persona text, and the other member labelled by name', async () => {
    const h = await start()
    const { alice, bob, flow } = await scene(h)
    const first = await send(h, flow.id, 'Good morning, everyone.', undefined, 'Morning! The charts are ready.')
    // Nobody named: the first member in turn.
    expect(first.node.metadata.speaker_id).toBe(alice.id)
    expect(first.system).toContain('You are Alice.')
    expect(first.system).toContain('group scene')

    const second = await send(h, flow.id, 'Bob, is the ship ready?', first.node.id, 'She is.')
    expect(second.node.metadata.speaker_id).toBe(bob.id)
    expect(second.system).toContain('You are Bob.')
    expect(second.system).toContain('Bob is a sailor.')
    expect(second.system).not.toContain('Alice is a cartographer.')
    // Alice's reply reaches Bob as hers, by name; his own prompt follows.
    expect(second.context.messages.slice(1)).toEqual([
      { role: 'user', content: 'Good morning, everyone.' },
      { role: 'user', content: 'Alice: Morning! The charts are ready.' },
      { role: 'user', content: 'Bob, is the ship ready?' },
    ])

    // Going on without a prompt: the next member in turn, told whose turn it is.
    h.fake.script({ provider: 'openai', reply: 'Then we sail.', times: 1 })
    const next = await h.call<{ node_id: string; persona_id: string }>('chat_next_speaker', {
      flow_id: flow.id,
      parent_id: second.node.id,
    })
    expect(next.persona_id).toBe(alice.id)
    const third = await answered(h, next.node_id)
    expect(third.node.prompt).toBe('')
    expect(third.context.messages.at(-1)).toEqual({ role: 'user', content: '(Alice speaks next.)' })
    // Her own reply two turns up is in the history under her name, Bob's in full as his.
    expect(third.system).toContain('Good morning, everyone. → Alice: Morning! The charts are ready.')
    expect(third.context.messages.slice(-3, -1)).toEqual([
      { role: 'user', content: 'Bob, is the ship ready?' },
      { role: 'user', content: 'Bob: She is.' },
    ])
  })

  it("uses only the speaker's lorebooks, keeps the speaker on retry and lets a swipe go to another member", async () => {
    const h = await start()
    const { alice, bob, flow } = await scene(h, 'round_robin')
    const book = await h.call<LoreBook>('create_lorebook', { name: 'Sea' })
    await h.call('create_lore_entry', {
      book_id: book.id,
      keys: ['storm'],
      comment: 'Storm',
      content: 'Storms come at dusk.',
    })
    await h.call('attach_lorebook', { book_id: book.id, kind: 'persona', target_id: bob.id })

    const byAlice = await send(h, flow.id, 'A storm is coming.')
    expect(byAlice.node.metadata.speaker_id).toBe(alice.id)
    expect(byAlice.system).not.toContain('Storms come at dusk.')

    h.fake.script({ provider: 'openai', reply: 'Again.', times: 1 })
    const retried = await h.call<{ node_id: string }>('chat_retry', { node_id: byAlice.node.id, flow_id: flow.id })
    expect((await answered(h, retried.node_id)).node.metadata.speaker_id).toBe(alice.id)

    h.fake.script({ provider: 'openai', reply: 'Reef the sails.', times: 1 })
    const swiped = await h.call<{ node_id: string }>('chat_retry', {
      node_id: byAlice.node.id,
      flow_id: flow.id,
      persona_id: bob.id,
    })
    const byBob = await answered(h, swiped.node_id)
    expect(byBob.node.metadata.speaker_id).toBe(bob.id)
    expect(byBob.system).toContain('Storms come at dusk.')

    const stranger = await h.call<Persona>('create_persona', { name: 'Carol' })
    await expect(
      h.call('chat_retry', { node_id: byAlice.node.id, flow_id: flow.id, persona_id: stranger.id }),
    ).rejects.toThrow(/not a member/)
  })

  it('refuses to go on without a prompt outside a group, and when every member is muted', async () => {
    const h = await start()
    const { alice, bob, flow } = await scene(h)
    const first = await send(h, flow.id, 'Hello.')
    await h.call('update_flow', {
      id: flow.id,
      cast: [
        { persona_id: alice.id, muted: true },
        { persona_id: bob.id, muted: true },
      ],
    })
    await expect(
      h.call('chat_send', { flow_id: flow.id, prompt: 'Anyone?', parent_id: first.node.id }),
    ).rejects.toThrow(/muted/)
    // A muted member picked by hand still speaks.
    h.fake.script({ provider: 'openai', reply: 'I am here.', times: 1 })
    const picked = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      prompt: 'Bob?',
      parent_id: first.node.id,
      persona_id: bob.id,
    })
    expect((await answered(h, picked.node_id)).node.metadata.speaker_id).toBe(bob.id)

    const plain = await h.call<Flow>('create_flow', { name: 'alone', persona_id: alice.id })
    const root = await h.call<Node>('create_node', { flow_id: plain.id, prompt: 'hi', response: 'hello' })
    await expect(h.call('chat_next_speaker', { flow_id: plain.id, parent_id: root.id })).rejects.toThrow(/group scene/)
  })

  it("packs only the speaker's own memory into its context", async () => {
    const h = await start()
    const { alice, bob, flow } = await scene(h, 'round_robin')
    await h.call('memory_add_unit', {
      persona_id: alice.id,
      kind: 'fact',
      text: 'The lighthouse key is under the blue stone.',
      pin: true,
    })
    await h.call('memory_add_unit', {
      persona_id: bob.id,
      kind: 'fact',
      text: 'The lighthouse keeper owes Bob a favour.',
      pin: true,
    })
    const byAlice = await send(h, flow.id, 'Where is the lighthouse key?')
    expect(byAlice.node.metadata.speaker_id).toBe(alice.id)
    expect(byAlice.system).toContain('under the blue stone')
    expect(byAlice.system).not.toContain('owes Bob a favour')
    const byBob = await send(h, flow.id, 'And the lighthouse keeper?', byAlice.node.id)
    expect(byBob.node.metadata.speaker_id).toBe(bob.id)
    expect(byBob.system).toContain('owes Bob a favour')
    expect(byBob.system).not.toContain('under the blue stone')
  })

  it("keeps each turn in the speaker's memory as its own and in the other members' as witnessed; a later member has none before it joined", async () => {
    const h = await start()
    const { alice, bob, flow } = await scene(h)
    const first = await send(h, flow.id, 'Alice, where are we?', undefined, 'Off the coast of Kyushu.')
    const carol = await h.call<Persona>('create_persona', { name: 'Carol' })
    await h.call('update_flow', {
      id: flow.id,
      cast: [...flow.cast!, { persona_id: carol.id, muted: false }],
    })
    const second = await send(h, flow.id, 'Carol, welcome aboard.', first.node.id, 'Glad to be here.')
    expect(second.node.metadata.speaker_id).toBe(carol.id)

    const episodes = async (personaId: string) =>
      (
        await h.call<{ units: Array<MemoryUnit & { text: string }> }>('memory_list_units', {
          persona_id: personaId,
          kind: 'episode',
        })
      ).units
        .map((u) => [u.origin_node_id, u.text])
        .sort()
    const byNode = (pairs: Array<Array<string | null>>) => Object.fromEntries(pairs)
    const mine = byNode(await episodes(alice.id))
    expect(mine[first.node.id]).toBe('User: Alice, where are we?\nPersona: Off the coast of Kyushu.')
    expect(mine[second.node.id]).toBe('User: Carol, welcome aboard.\nCarol: Glad to be here.')
    const bobs = byNode(await episodes(bob.id))
    expect(bobs[first.node.id]).toBe('User: Alice, where are we?\nAlice: Off the coast of Kyushu.')
    expect(bobs[second.node.id]).toBe('User: Carol, welcome aboard.\nCarol: Glad to be here.')
    const carols = byNode(await episodes(carol.id))
    expect(Object.keys(carols)).toEqual([second.node.id])
    expect(carols[second.node.id]).toBe('User: Carol, welcome aboard.\nPersona: Glad to be here.')
  })
})
