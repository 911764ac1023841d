import { describe, expect, it } from 'vitest'
import type { Flow, Node } from '@shared/contract'
import { exchange, useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

async function flowWithParent(h: Awaited<ReturnType<typeof start>>) {
  const flow = await h.call<Flow>('create_flow', { name: 'chat' })
  const parent = await h.call<Node>('create_node', {
    flow_id: flow.id,
    prompt: '京都はどこ？',
    response: '日本の関西地方です。',
  })
  return { flow, parent }
}

const settled = (h: Awaited<ReturnType<typeof start>>, nodeId: string) =>
  h.next('chat_status', (s) => s.node_id === nodeId && ['done', 'failed', 'stopped'].includes(s.state))

/** A persona and a conversation of its, on a fresh core. */
async function personaChat() {
  const h = await start()
  const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika', persona_text: 'You are kind.' })
  const flow = await h.call<Flow>('create_flow', { name: 'chat', persona_id: persona.id })
  return { h, persona, flow }
}

/** A conversation's first message answered, then answered again (Regenerate): the new answer's node. */
async function regeneratedFirst(
  h: Awaited<ReturnType<typeof start>>,
  flowId: string,
  [prompt, reply]: [string, string],
  againReply: string,
): Promise<string> {
  const first = await exchange(h, { flowId, prompt, reply })
  h.fake.script({ provider: 'openai', reply: againReply, times: 1 })
  const again = await h.call<{ node_id: string }>('chat_retry', { node_id: first })
  expect(await settled(h, again.node_id)).toMatchObject({ state: 'done' })
  return again.node_id
}

/** The system message of the newest request the model was sent (persona, memory). */
const lastSystemPrompt = (h: Awaited<ReturnType<typeof start>>) =>
  (h.fake.requests.at(-1)!.body as { messages: Array<{ content: string }> }).messages[0]!.content

describe('chat over a real HTTP provider', () => {
  it('creates the node at once, streams the reply in batches, then saves text, model and stats', async () => {
    const h = await start()
    const { flow, parent } = await flowWithParent(h)
    const chunks = Array.from({ length: 40 }, (_, i) => `w${i} `)
    h.fake.script({ provider: 'openai', reply: chunks.join(''), chunks })

    const { node_id } = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      parent_id: parent.id,
      prompt: 'おすすめは？',
    })
    expect((await h.call<Node>('get_node', { id: node_id })).status).toBe('streaming')
    expect(await settled(h, node_id)).toMatchObject({ state: 'done' })

    const node = await h.call<Node>('get_node', { id: node_id })
    expect(node).toMatchObject({
      status: 'complete',
      response: chunks.join(''),
      error: null,
      metadata: { model: 'openai:gpt-4o-mini' },
    })
    expect(node.metadata.stats.assistant!.count).toBeGreaterThan(0)
    expect(node.metadata.stats.user!.count).toBeGreaterThan(0)
    // The context inspector can show exactly what was sent with this node.
    const sentWith = await h.call<{ context: { parts: Array<{ kind: string; text: string }> } }>('get_sent_context', {
      node_id,
    })
    expect(sentWith.context.parts.find((p) => p.kind === 'parent')!.text).toContain('京都はどこ？')
    expect(sentWith.context.parts.at(-1)).toMatchObject({ kind: 'prompt', text: 'おすすめは？' })
    expect(await h.call('get_sent_context', { node_id: parent.id })).toBeNull()
    const streamed = h.events.filter((e) => e.event === 'node_stream')
    expect(streamed.map((e) => (e.data as { delta: string }).delta).join('')).toBe(chunks.join(''))
    expect(streamed.length).toBeLessThan(chunks.length) // batched, not one event per token

    // What the provider received: the context of seed §7.3 with the parent in full.
    const sent = h.fake.requests.find((r) => r.path === '/v1/chat/completions')!.body as {
      messages: Array<{ role: string; content: string }>
      stream: boolean
    }
    expect(sent.stream).toBe(true)
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(sent.messages.slice(1).map((m) => m.content)).toEqual([
      '京都はどこ？',
      '日本の関西地方です。',
      'おすすめは？',
    ])
  })

  it('stops on request and keeps what arrived; continue finishes the same node', async () => {
    const h = await start()
    const { flow } = await flowWithParent(h)
    const chunks = Array.from({ length: 30 }, (_, i) => `t${i} `)
    h.fake.script({ provider: 'openai', reply: chunks.join(''), chunks, chunkDelayMs: 40, times: 1 })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'long story' })
    await h.next('node_stream', (d) => d.node_id === node_id)
    expect(await h.call('chat_stop', { node_id })).toEqual({ stopped: true })
    expect(await settled(h, node_id)).toMatchObject({ state: 'stopped' })
    const stopped = await h.call<Node>('get_node', { id: node_id })
    expect(stopped.status).toBe('incomplete')
    expect(stopped.response.length).toBeGreaterThan(0)
    expect(chunks.join('').startsWith(stopped.response)).toBe(true)

    h.fake.script({ provider: 'openai', reply: ' the end.' })
    await h.call('chat_continue', { node_id })
    await settled(h, node_id)
    const finished = await h.call<Node>('get_node', { id: node_id })
    expect(finished).toMatchObject({ status: 'complete', response: `${stopped.response} the end.` })
    const continued = h.fake.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> }
    expect(continued.messages.at(-2)).toEqual({ role: 'assistant', content: stopped.response })
  })

  it('deleting a streaming reply stops it; undo brings it back incomplete, and Continue finishes it', async () => {
    const h = await start()
    const { flow } = await flowWithParent(h)
    const chunks = Array.from({ length: 60 }, (_, i) => `d${i} `)
    h.fake.script({ provider: 'openai', reply: chunks.join(''), chunks, chunkDelayMs: 40, times: 1 })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'tell me more' })
    await h.next('node_stream', (d) => d.node_id === node_id)

    await h.call('delete_node', { flow_id: flow.id, id: node_id })
    expect(await settled(h, node_id)).toMatchObject({ state: 'stopped' })
    await h.call('graph_undo', { flow_id: flow.id })
    const back = await h.call<Node>('get_node', { id: node_id })
    expect(back.status).toBe('incomplete')
    expect(chunks.join('').startsWith(back.response)).toBe(true)
    expect(await h.call('chat_stop', { node_id })).toEqual({ stopped: false })

    h.fake.script({ provider: 'openai', reply: 'and so on.' })
    await h.call('chat_continue', { node_id })
    await settled(h, node_id)
    expect(await h.call<Node>('get_node', { id: node_id })).toMatchObject({
      status: 'complete',
      response: `${back.response}and so on.`,
    })
  })

  it('shows a clear error on the node for a wrong API key, and keeps the prompt', async () => {
    const h = await start({ openaiKey: 'sk-wrong' })
    const { flow } = await flowWithParent(h)
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'hello?' })
    expect(await settled(h, node_id)).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/),
    })
    expect(await h.call<Node>('get_node', { id: node_id })).toMatchObject({
      status: 'error',
      prompt: 'hello?',
      error: expect.stringMatching(/^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/),
    })
    expect(JSON.stringify(h.events)).not.toContain('sk-wrong')
  })

  it('retries a rate-limited request, saying so, then streams the reply', async () => {
    const h = await start({ chat: { retry: { attempts: 3, baseDelayMs: 20 } } })
    const { flow } = await flowWithParent(h)
    h.fake.script({ provider: 'openai', status: 429, times: 1 })
    h.fake.script({ provider: 'openai', reply: 'after the wait' })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'busy?' })
    expect(await h.next('chat_status', (s) => s.node_id === node_id && s.state === 'retrying')).toMatchObject({
      message: expect.stringMatching(/rate limiting requests, retrying in \d+ s/),
    })
    await settled(h, node_id)
    expect(await h.call<Node>('get_node', { id: node_id })).toMatchObject({
      status: 'complete',
      response: 'after the wait',
    })
  })

  it('keeps the partial text of a stream cut mid-reply, marked incomplete with the reason', async () => {
    const h = await start({ chat: { retry: { attempts: 1 } } })
    const { flow } = await flowWithParent(h)
    h.fake.script({
      provider: 'openai',
      reply: 'one two three four',
      chunks: ['one ', 'two ', 'three ', 'four'],
      disconnectAfterChunks: 2,
    })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'count' })
    expect(await settled(h, node_id)).toMatchObject({ state: 'failed' })
    const node = await h.call<Node>('get_node', { id: node_id })
    expect(node).toMatchObject({ status: 'incomplete', response: 'one two ' })
    expect(node.error).toBeTruthy()
  })

  it('shows what was sent for a reply the provider refused before any text', async () => {
    const h = await start({ chat: { retry: { attempts: 1 } } })
    const { flow, parent } = await flowWithParent(h)
    h.fake.script({ provider: 'openai', status: 400 })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      parent_id: parent.id,
      prompt: 'refused',
    })
    expect(await settled(h, node_id)).toMatchObject({ state: 'failed' })
    expect((await h.call<Node>('get_node', { id: node_id })).status).toBe('error')
    const sent = await h.call<{ context: { parts: Array<{ kind: string; text: string }> } } | null>(
      'get_sent_context',
      { node_id },
    )
    expect(sent?.context.parts.at(-1)).toMatchObject({ kind: 'prompt', text: 'refused' })
  })

  it('retry makes a sibling with the same parent and prompt, streaming its own reply', async () => {
    const h = await start()
    const { flow, parent } = await flowWithParent(h)
    h.fake.script({ provider: 'openai', reply: 'first answer', times: 1 })
    h.fake.script({ provider: 'openai', reply: 'second answer', times: 1 })
    const first = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      parent_id: parent.id,
      prompt: 'again?',
    })
    await settled(h, first.node_id)
    const second = await h.call<{ node_id: string }>('chat_retry', { node_id: first.node_id })
    await settled(h, second.node_id)
    const shape = await h.call<Flow>('get_flow', { id: flow.id })
    expect(shape.connections).toEqual(
      expect.arrayContaining([
        { from: parent.id, to: first.node_id },
        { from: parent.id, to: second.node_id },
      ]),
    )
    expect(await h.call<Node>('get_node', { id: second.node_id })).toMatchObject({
      prompt: 'again?',
      response: 'second answer',
    })
    expect(await h.call<Node>('get_node', { id: first.node_id })).toMatchObject({ response: 'first answer' })
  })

  it("Regenerate on a conversation's first message does not remember the answer it replaces", async () => {
    const { h, flow } = await personaChat()
    // The sibling of a first message is a first message itself: a separate tree, which memory reaches.
    await regeneratedFirst(h, flow.id, ['My cat is called Tama.', 'Tama is a lovely name!'], 'What a nice name.')
    const system = lastSystemPrompt(h)
    expect(system).toContain('You are kind.')
    expect(system).not.toContain('Tama is a lovely name')
  })

  it('a turn below a regenerated first message does not remember the answer it replaced, and another conversation does', async () => {
    const { h, persona, flow } = await personaChat()
    const again = await regeneratedFirst(
      h,
      flow.id,
      ['Guess what my cat is called.', 'Is your cat called Tama?'],
      'Is it Mochi?',
    )
    // Going on below the new answer: the one it replaced is the road not taken.
    await exchange(h, {
      flowId: flow.id,
      prompt: 'Which names about my cat did you guess?',
      reply: 'Mochi.',
      parentId: again,
    })
    const sent = lastSystemPrompt(h)
    expect(sent).not.toContain('Tama')
    // A conversation of its own still remembers both answers given in the first.
    const other = await h.call<Flow>('create_flow', { name: 'later', persona_id: persona.id })
    await exchange(h, { flowId: other.id, prompt: 'Which names about my cat did you guess?', reply: 'Tama and Mochi.' })
    const elsewhere = lastSystemPrompt(h)
    expect(elsewhere).toContain('Tama')
  })

  it('keeps what the user asks it to remember, says so, and knows it in a new conversation whatever is asked', async () => {
    const { h, persona, flow } = await personaChat()
    const told = h.next('memory_told', (d) => d.persona_id === persona.id)
    const first = await exchange(h, { flowId: flow.id, prompt: 'Hi!', reply: 'Hello.' })
    const asked = await exchange(h, {
      flowId: flow.id,
      prompt: 'Oh, and remember that my cat is called Mochi.',
      reply: 'I will!',
      parentId: first,
    })
    const said = await told
    expect(said).toMatchObject({ node_id: asked, text: 'my cat is called Mochi' })
    // A question that shares no word with it still has it beside it: it is pinned.
    const other = await h.call<Flow>('create_flow', { name: 'later', persona_id: persona.id })
    await exchange(h, { flowId: other.id, prompt: 'What should we do this weekend?', reply: 'A walk?' })
    expect(lastSystemPrompt(h)).toContain('- user: my cat is called Mochi')
    // A branch beside the turn that said it never heard it.
    await exchange(h, { flowId: flow.id, prompt: 'What should we do this weekend?', reply: 'Rest.', parentId: first })
    expect(lastSystemPrompt(h)).not.toContain('Mochi')
    // Said again, it is the same memory, not a second one.
    await exchange(h, { flowId: other.id, prompt: 'Remember that my cat is called Mochi.', reply: 'I know.' })
    const units = await h.call<{ units: Array<{ id: number; salience: number }> }>('memory_list_units', {
      persona_id: persona.id,
      kind: 'fact',
    })
    expect(units.units.map((u) => u.id)).toEqual([said.unit_id])
    // The panel shows it as worth remembering as anything: the user said so.
    expect(units.units[0]!.salience).toBe(1)
    expect(lastSystemPrompt(h)).toContain('- user: my cat is called Mochi')
    // Undo forgets it (the turns that said it are still remembered as turns).
    await h.call('memory_delete_unit', { persona_id: persona.id, unit_id: said.unit_id })
    await exchange(h, { flowId: other.id, prompt: 'What should we do this weekend?', reply: 'A walk?' })
    expect(lastSystemPrompt(h)).not.toContain('- user: my cat is called Mochi')
  })

  it('forgets, when asked, what it was asked to remember; unarchived, it is back', async () => {
    const { h, persona, flow } = await personaChat()
    const told = h.next('memory_told')
    await exchange(h, { flowId: flow.id, prompt: 'Remember that my cat is called Mochi.', reply: 'I will!' })
    const { unit_id } = await told
    const forgot = h.next('memory_forgot')
    const other = await h.call<Flow>('create_flow', { name: 'later', persona_id: persona.id })
    await exchange(h, { flowId: other.id, prompt: 'Please forget about my cat.', reply: 'Done.' })
    expect((await forgot).units).toEqual([{ unit_id, text: 'my cat is called Mochi' }])
    await exchange(h, { flowId: other.id, prompt: 'What should we do this weekend?', reply: 'A walk?' })
    expect(lastSystemPrompt(h)).not.toContain('- user: my cat is called Mochi')
    // Undo: unarchived, it rides along again.
    await h.call('memory_archive_unit', { persona_id: persona.id, unit_id, archived: false })
    await exchange(h, { flowId: other.id, prompt: 'What should we do this weekend?', reply: 'A walk?' })
    expect(lastSystemPrompt(h)).toContain('- user: my cat is called Mochi')
    // Forgotten, then asked again: the same fact comes back, not a second one.
    await exchange(h, { flowId: other.id, prompt: 'Please forget about my cat.', reply: 'Done.' })
    const again = h.next('memory_told')
    await exchange(h, { flowId: other.id, prompt: 'Remember that my cat is called Mochi.', reply: 'OK.' })
    expect((await again).unit_id).toBe(unit_id)
    const facts = await h.call<{ units: Array<{ id: number }> }>('memory_list_units', {
      persona_id: persona.id,
      kind: 'fact',
    })
    expect(facts.units.map((u) => u.id)).toEqual([unit_id])
  })

  it('keeps nothing for a question about the past or a reminder, and forgets nothing it was not asked to remember', async () => {
    const { h, persona, flow } = await personaChat()
    await exchange(h, { flowId: flow.id, prompt: 'Do you remember that day at the lake?', reply: 'Yes.' })
    await exchange(h, { flowId: flow.id, prompt: "Don't forget to water the plants.", reply: 'OK.' })
    await exchange(h, { flowId: flow.id, prompt: 'Forget that my cat is called Mochi.', reply: 'Who?' })
    const units = await h.call<{ units: unknown[] }>('memory_list_units', { persona_id: persona.id, kind: 'fact' })
    expect(units.units).toEqual([])
    expect(h.events.filter((e) => e.event === 'memory_told' || e.event === 'memory_forgot')).toEqual([])
  })

  it('an edited first message stays in its conversation: a turn below it does not remember the version it replaced', async () => {
    const { h, flow } = await personaChat()
    const first = await exchange(h, { flowId: flow.id, prompt: 'My favourite fruit is the durian.', reply: 'Bold!' })
    h.fake.script({ provider: 'openai', reply: 'Lovely.', times: 1 })
    const done = h.next('chat_status', (d) => d.state === 'done')
    const edited = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      prompt: 'My favourite fruit is the mango.',
      version_of: first,
    })
    expect((await done).node_id).toBe(edited.node_id)
    await exchange(h, { flowId: flow.id, prompt: 'Which fruit do I like?', reply: 'Mango.', parentId: edited.node_id })
    const sent = lastSystemPrompt(h)
    expect(sent).not.toContain('durian')
    // A version of a node the conversation does not hold is refused, and nothing is written.
    await expect(
      h.call('chat_send', { flow_id: flow.id, prompt: 'x', version_of: '00000000-0000-4000-8000-000000000000' }),
    ).rejects.toThrow(/not_found/)
    expect((await h.call<Flow>('get_flow', { id: flow.id })).nodes).toHaveLength(3)
  })

  it('lets the model look up a node’s details with a tool call before it answers (seed §7.3)', async () => {
    const h = await start()
    const { flow, parent } = await flowWithParent(h)
    h.fake.script({
      provider: 'openai',
      reply: { toolCalls: [{ name: 'get_node_details', arguments: { node_id: parent.id } }] },
      times: 1,
    })
    h.fake.script({ provider: 'openai', reply: 'It is in Kansai.', times: 1 })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', {
      flow_id: flow.id,
      parent_id: parent.id,
      prompt: 'where again?',
    })
    await settled(h, node_id)
    expect(await h.call<Node>('get_node', { id: node_id })).toMatchObject({
      status: 'complete',
      response: 'It is in Kansai.',
    })
    const chats = h.fake.requests.filter((r) => r.path === '/v1/chat/completions')
    expect((chats[0]!.body as { tools: Array<{ function: { name: string } }> }).tools[0]!.function.name).toBe(
      'get_node_details',
    )
    const followUp = (chats[1]!.body as { messages: Array<{ role: string; content: string }> }).messages
    expect(followUp.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('日本の関西地方です。') })
  })

  it('uses the chat defaults chosen in the settings when neither persona nor environment names a model', async () => {
    const h = await start({ env: { LOOMVERSE_DEFAULT_MODEL: '' } })
    const { flow } = await flowWithParent(h)
    await h.call('update_settings', { chat: { model: 'openai:gpt-4o', temperature: 0.3, max_tokens: 256 } })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'hi' })
    await settled(h, node_id)
    expect(h.fake.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o', temperature: 0.3, max_tokens: 256 })
    expect(await h.call<Node>('get_node', { id: node_id })).toMatchObject({ metadata: { model: 'openai:gpt-4o' } })
  })

  it('says why when the new node cannot be written, calls the request off and leaves nothing behind', async () => {
    const h = await start()
    const { flow, parent } = await flowWithParent(h)
    const chunks = Array.from({ length: 20 }, (_, i) => `z${i} `)
    // The request goes out before the node is written: a model still answering must be stopped.
    h.fake.script({ provider: 'openai', reply: chunks.join(''), chunks, chunkDelayMs: 20 })
    h.core.db.exec(`CREATE TEMP TRIGGER no_room BEFORE INSERT ON nodes BEGIN SELECT RAISE(ABORT, 'disk is full'); END`)

    await expect(
      h.call('chat_send', { flow_id: flow.id, parent_id: parent.id, prompt: 'どこへ行こう？' }),
    ).rejects.toThrow(/disk is full/)
    const after = await h.call<Flow>('get_flow', { id: flow.id })
    expect(after.nodes.map((n) => n.id)).toEqual([parent.id])
    expect(h.events.some((e) => e.event === 'node_stream')).toBe(false)

    // Nothing is left running, and the next message, once the disk has room, goes through.
    h.core.db.exec('DROP TRIGGER no_room')
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'もう一度' })
    expect(await settled(h, node_id)).toMatchObject({ state: 'done' })
    expect(
      h.events
        .filter((e) => e.event === 'node_stream')
        .every((e) => (e.data as { node_id: string }).node_id === node_id),
    ).toBe(true)
  })

  it('tells the user why in the UI language: Japanese when the settings say so', async () => {
    const h = await start({ openaiKey: 'sk-wrong' })
    await h.call('update_settings', { language: 'ja' })
    const { flow } = await flowWithParent(h)
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'こんにちは' })
    expect(await settled(h, node_id)).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1（OpenAI 互換）の API キーが正しくありません$/),
    })
    expect(await h.call('test_provider', { id: 'openai' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1（OpenAI 互換）の API キーが正しくありません$/),
    })
  })
})
