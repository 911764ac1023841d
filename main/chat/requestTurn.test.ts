import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { ContextPreview, EventData, LoreBook, Node } from '@shared/contract'
import { exchange, useLlmCore, type LlmHarness } from '../../tests/support/llmCore'

// A notification or meta request from another program is answered as a chat turn of the
// persona's External flow (issue 41): the same context builder (budget, lorebook, memory), the
// same stream (events, Stop), and the inspector's record of what was sent. Memory's own reply
// loop sent a bare system text and the request, and kept no record of it.

const start = useLlmCore({ memory: { queue: { backoffSeconds: 0, maxTries: 3 } } })

type Sent = { messages: Array<{ role: string; content: string }> }

async function withPersona() {
  const h = await start({ language: 'en' })
  const persona = await h.call<{ id: string }>('create_persona', { name: 'Mika', persona_text: 'You are cheerful.' })
  return { h, persona: persona.id }
}

/** The node chat answered the request in: its `done` names the request's unit. */
function doneFor(h: LlmHarness, unitId: number): string {
  const done = h.events.find(
    (e) => e.event === 'chat_status' && (e.data as EventData<'chat_status'>).unit_id === unitId,
  )
  return (done!.data as EventData<'chat_status'>).node_id
}

/** A notification from `source`, answered with `reply`: the node it was answered in. */
async function notify(h: LlmHarness, persona: string, source: string, text: string, reply: string): Promise<string> {
  h.fake.script({ promptIncludes: text, reply, times: 1 })
  const replied = h.next('external_reply')
  const { unit_id } = await h.call<{ unit_id: number }>('memory_notify', {
    persona_id: persona,
    source_system: source,
    text,
  })
  expect((await replied).data).toMatchObject({ message: reply })
  return doneFor(h, unit_id)
}

/** A meta request with secret words, answered: its unit. */
async function metaRequest(h: LlmHarness, persona: string): Promise<number> {
  h.fake.script({ promptIncludes: 'Summarise', reply: 'Three meetings tomorrow.' })
  const replied = h.next('external_reply')
  const { unit_id: unitId } = await h.call<{ unit_id: number }>('memory_meta_request', {
    persona_id: persona,
    instruction: 'Summarise for the user',
    payload_text: 'secret agenda text',
  })
  await replied
  return unitId
}

/**
 * Sends a program's request with `ask` and stops its reply at its first text: the stopped node,
 * once the request is published as ended (Continue then finds the reply no longer streaming).
 */
async function stoppedReply<T>(h: LlmHarness, ask: () => Promise<T>): Promise<{ nodeId: string; asked: T }> {
  const streamed = h.next('node_stream')
  const replied = h.next('external_reply')
  const asked = await ask()
  const { node_id: nodeId } = await streamed
  const stopped = h.next('chat_status', (s) => s.node_id === nodeId && s.state === 'stopped')
  await h.call('chat_stop', { node_id: nodeId })
  await stopped
  await replied
  return { nodeId, asked }
}

async function sentContext(h: LlmHarness, nodeId: string): Promise<ContextPreview> {
  const sent = await h.call<{ context: ContextPreview } | null>('get_sent_context', { node_id: nodeId })
  expect(sent).not.toBeNull()
  return sent!.context
}

describe("a program's request answered as a chat turn", () => {
  it("fires the persona's lorebook, holds the flow's budget, and keeps what was sent for the inspector", async () => {
    const { h, persona } = await withPersona()
    const book = await h.call<LoreBook>('create_lorebook', { name: 'Life' })
    await h.call('create_lore_entry', { book_id: book.id, keys: ['appointment'], content: 'Dr. Sato is the dentist.' })
    // Keyed on a word of the instruction every notification comes in: the request's own words are searched, not it.
    await h.call('create_lore_entry', { book_id: book.id, keys: ['partner'], content: 'Ken is the partner.' })
    await h.call('attach_lorebook', { book_id: book.id, kind: 'persona', target_id: persona })
    await h.call('update_settings', { context_budget: 2500 })
    const long = await notify(
      h,
      persona,
      'calendar',
      `Quarterly report ready: ${'figures '.repeat(4000)}`,
      'The report is out.',
    )
    const nodeId = await notify(h, persona, 'calendar', 'Dentist appointment at 15:00', 'Dentist at three!')

    const request = h.fake.requests.filter((r) => JSON.stringify(r.body).includes('Dentist appointment')).at(-1)!
    const system = (request.body as Sent).messages[0]!.content
    expect(system).toContain('You are cheerful.')
    expect(system).toContain('Dr. Sato is the dentist.')
    const context = await sentContext(h, nodeId)
    expect(context.budget).toBe(2500)
    // The tools offered go beside the messages, inside the budget.
    expect(context.tool_tokens).toBeGreaterThan(0)
    expect(context.total_tokens).toBeLessThanOrEqual(context.budget)
    // The earlier notification is the turn above it in the External flow, too long for the budget: its end only.
    const parent = context.parts.find((p) => p.kind === 'parent')!
    expect(parent.node_id).toBe(long)
    expect(parent.text).not.toContain('Quarterly report ready')
    expect(context.parts.filter((p) => p.kind === 'lore').map((p) => p.text)).toEqual(['Dr. Sato is the dentist.'])
    expect(context.messages.at(-1)!.content).toContain('Dentist appointment at 15:00')
    expect((await h.call<Node>('get_node', { id: nodeId })).prompt).toBe('[calendar] Dentist appointment at 15:00')
  })

  it('streams into its node, and Stop gives the request up with the reason', async () => {
    const { h, persona } = await withPersona()
    h.fake.script({ promptIncludes: 'Parcel', reply: 'never sent', until: new Promise(() => {}) })
    const waiting = h.next('chat_status', (s) => s.state === 'waiting')
    const { unit_id: unitId } = await h.call<{ unit_id: number }>('memory_notify', {
      persona_id: persona,
      source_system: 'courier',
      text: 'Parcel at the door',
    })
    const { node_id: nodeId } = await waiting
    expect((await h.call<Node>('get_node', { id: nodeId })).status).toBe('streaming')
    const replied = h.next('external_reply', (r) => r.unit_id === unitId)
    const stopped = h.next('chat_status', (s) => s.node_id === nodeId && s.state === 'stopped')
    expect(await h.call('chat_stop', { node_id: nodeId })).toEqual({ stopped: true })
    await stopped
    expect((await replied).data).toEqual({ error: 'stopped by the user' })
    expect((await h.call<Node>('get_node', { id: nodeId })).status).toBe('incomplete')
  })

  it("sends a meta request's words to the model but keeps them redacted in the inspector", async () => {
    const { h, persona } = await withPersona()
    const unitId = await metaRequest(h, persona)
    const asked = h.fake.requests.find((r) => JSON.stringify(r.body).includes('Summarise for the user'))!
    expect(JSON.stringify(asked.body)).toContain('secret agenda text')
    const context = await sentContext(h, doneFor(h, unitId))
    expect(JSON.stringify(context)).not.toContain('secret agenda text')
    expect(context.messages.at(-1)).toEqual({ role: 'user', content: '[redacted]' })
  })

  it("leaves the request's own episode out of its reply's memory, and a later turn remembers it", async () => {
    const { h, persona } = await withPersona()
    const nodeId = await notify(h, persona, 'calendar', 'Dentist appointment at 15:00 with Dr. Sato', 'At three!')
    const asked = h.fake.requests.find((r) => JSON.stringify(r.body).includes('Dentist appointment'))!
    // The notification is the question; memory did not hand it back as something remembered.
    expect((asked.body as Sent).messages[0]!.content).not.toContain('Dr. Sato')
    const context = await sentContext(h, nodeId)
    expect(
      context.parts
        .filter((p) => p.kind === 'memory')
        .map((p) => p.text)
        .join(''),
    ).not.toContain('Dr. Sato')

    // Another conversation remembers it.
    const flow = await h.call<{ id: string }>('create_flow', { name: 'talk', persona_id: persona })
    await exchange(h, { flowId: flow.id, prompt: 'When do I see Dr. Sato?', reply: 'At three.' })
    const later = h.fake.requests.filter((r) => JSON.stringify(r.body).includes('When do I see')).at(-1)!
    expect((later.body as Sent).messages[0]!.content).toContain('Dentist appointment at 15:00 with Dr. Sato')
  })

  it("Regenerate on a notification's node asks the notification again, not the label the node shows", async () => {
    const { h, persona } = await withPersona()
    // Below an earlier one, as the External flow grows: a Regenerate beside it is another branch of one tree.
    await notify(h, persona, 'weather', 'Rain expected at noon', 'Take an umbrella.')
    const nodeId = await notify(h, persona, 'courier', 'Parcel at the door', 'A parcel came!')
    const lastAsk = () => (h.fake.requests.at(-1)!.body as Sent).messages.at(-1)!.content
    const question = lastAsk()
    expect(question).toContain('Tell your partner about it')

    const regenerate = async (node: string, reply: string) => {
      h.fake.script({ promptIncludes: 'Parcel at the door', reply, times: 1 })
      const done = h.next('chat_status', (s) => s.state === 'done' || s.state === 'failed')
      const { node_id } = await h.call<{ node_id: string }>('chat_retry', { node_id: node })
      expect(await done).toMatchObject({ node_id, state: 'done', unit_id: expect.any(Number) })
      return node_id
    }
    const again = await regenerate(nodeId, 'Your parcel is here.')
    expect(lastAsk()).toBe(question)
    // Its memory holds the notification as a memory from the other branch: not this one's.
    expect((h.fake.requests.at(-1)!.body as Sent).messages[0]!.content).not.toContain('Parcel at the door')
    const sibling = await h.call<Node>('get_node', { id: again })
    expect(sibling).toMatchObject({ prompt: '[courier] Parcel at the door', response: 'Your parcel is here.' })
    // Regenerate on the regenerated reply asks it once more.
    await regenerate(again, 'The parcel waits at the door.')
    expect(lastAsk()).toBe(question)
  })

  it("Regenerate on the External conversation's first node keeps the notification out of its memory, as the original did", async () => {
    const { h, persona } = await withPersona()
    // The first notification makes the conversation's first node: a Regenerate beside it is a second root.
    const nodeId = await notify(h, persona, 'calendar', 'Dentist appointment at 15:00 with Dr. Sato', 'At three!')
    const system = (r: { body: unknown }) => (r.body as Sent).messages[0]!.content
    const original = h.fake.requests.filter((r) => JSON.stringify(r.body).includes('Dentist appointment')).at(-1)!
    expect(system(original)).not.toContain('Dr. Sato')

    h.fake.script({ promptIncludes: 'Dentist appointment', reply: 'Dentist at three.', times: 1 })
    const done = h.next('chat_status', (s) => s.state === 'done' || s.state === 'failed')
    const { node_id: again } = await h.call<{ node_id: string }>('chat_retry', { node_id: nodeId })
    expect(await done).toMatchObject({ node_id: again, state: 'done' })
    const regenerated = h.fake.requests.at(-1)!
    expect((regenerated.body as Sent).messages.at(-1)!.content).toBe((original.body as Sent).messages.at(-1)!.content)
    // The road not taken: the first answer's notification is this reply's question, not a memory of it.
    expect(system(regenerated)).not.toContain('Dr. Sato')
    const memory = (await sentContext(h, again)).parts.filter((p) => p.kind === 'memory')
    expect(memory.map((p) => p.text).join('')).not.toContain('Dr. Sato')
  })

  it("Continue on a notification's stopped reply continues the answer to it, not the label the node shows", async () => {
    const { h, persona } = await withPersona()
    // The reply's first words come, then it hangs until the user stops it.
    h.fake.script({
      promptIncludes: 'Parcel at the door',
      reply: 'Your parcel is here, by the door.',
      chunks: ['Your parcel ', 'is here, by the door.'],
      chunkDelayMs: 600_000,
      times: 1,
    })
    const { nodeId, asked } = await stoppedReply(h, () =>
      h.call<{ unit_id: number }>('memory_notify', {
        persona_id: persona,
        source_system: 'courier',
        text: 'Parcel at the door',
      }),
    )
    const unitId = asked.unit_id
    expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({
      status: 'incomplete',
      response: 'Your parcel ',
    })
    const question = (h.fake.requests.at(-1)!.body as Sent).messages.at(-1)!.content
    expect(question).toContain('Tell your partner about it')

    h.fake.script({ promptIncludes: 'Continue exactly', reply: 'is at the door.', times: 1 })
    const done = h.next('chat_status', (s) => s.node_id === nodeId && ['done', 'failed'].includes(s.state))
    await h.call('chat_continue', { node_id: nodeId })
    // The request's own episode, waiting for the reply since the stop, takes it.
    expect(await done).toMatchObject({ state: 'done', unit_id: unitId })
    const sent = (h.fake.requests.at(-1)!.body as Sent).messages
    expect(sent.slice(-3)).toEqual([
      { role: 'user', content: question },
      { role: 'assistant', content: 'Your parcel ' },
      { role: 'user', content: expect.stringContaining('Continue exactly') },
    ])
    expect(JSON.stringify(sent)).not.toContain('[courier]')
    expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({
      status: 'complete',
      response: 'Your parcel is at the door.',
    })
    // Memory holds the notification once, with the whole reply: no chat exchange under the label.
    const { units } = await h.call<{ units: Array<{ id: number; source: string; text: string }> }>(
      'memory_list_units',
      { persona_id: persona, kind: 'episode' },
    )
    expect(units.map((u) => [u.id, u.source, u.text])).toEqual([
      [unitId, 'notification', 'User: Parcel at the door\nPersona: Your parcel is at the door.'],
    ])
  })

  it('refuses to Continue the stopped reply to a meta request, whose words are not kept', async () => {
    const { h, persona } = await withPersona()
    h.fake.script({
      promptIncludes: 'Summarise',
      reply: 'Three meetings.',
      chunks: ['Three ', 'meetings.'],
      chunkDelayMs: 600_000,
    })
    const { nodeId } = await stoppedReply(h, () =>
      h.call('memory_meta_request', {
        persona_id: persona,
        instruction: 'Summarise for the user',
        payload_text: 'secret agenda text',
      }),
    )
    const asked = h.fake.requests.length
    await expect(h.call('chat_continue', { node_id: nodeId })).rejects.toThrow(
      /conflict: .*meta request.*cannot be asked again/,
    )
    expect(await h.call<Node>('get_node', { id: nodeId })).toMatchObject({ status: 'incomplete', response: 'Three ' })
    expect(h.fake.requests).toHaveLength(asked)
  })

  it('refuses to Regenerate the reply to a meta request, whose words are not kept, and makes no node', async () => {
    const { h, persona } = await withPersona()
    const nodeId = doneFor(h, await metaRequest(h, persona))
    const asked = h.fake.requests.length
    // Said with its key, so a window words it in its own language.
    expect(await h.core.router.call('chat_retry', { node_id: nodeId }, { transport: 'internal' })).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(/meta request.*cannot be asked again/),
        key: 'meta_request_not_kept',
      },
    })
    const flows = await h.call<Array<{ id: string; name: string; node_count: number }>>('list_flows', {})
    expect(flows.find((f) => f.name === 'External')!.node_count).toBe(1)
    expect(h.fake.requests).toHaveLength(asked)
  })

  it('places a notification an older release answered at its node on the next start, so its Regenerate does not remember it', async () => {
    const { h, persona } = await withPersona()
    // Below an earlier one, as the External flow grows: a Regenerate beside it is another branch of one tree.
    await notify(h, persona, 'calendar', 'Gym at seven', 'Have fun!')
    const node = await notify(h, persona, 'calendar', 'Dentist appointment at 15:00 with Dr. Sato', 'At three!')
    // Shared into a conversation of the user's too: the memory still opens, and places it.
    const notes = await h.call<{ id: string }>('create_flow', { name: 'notes', persona_id: persona })
    await h.call('add_node_to_flow', { flow_id: notes.id, node_id: node })
    const home = h.core.paths.home
    const file = join(h.core.paths.memory, `memory_${persona}.db`)
    await h.core.dispose()
    // As a release before placeholders took their node kept it: the episode comes from no node.
    const db = new Database(file)
    db.prepare('UPDATE units SET origin_node_id = NULL, origin_flow_id = NULL WHERE origin_node_id = ?').run(node)
    db.close()

    const again = await start({ home, language: 'en' })
    again.fake.script({ promptIncludes: 'Dr. Sato', reply: 'Three o’clock.', times: 1 })
    const flows = await again.call<Array<{ id: string; name: string }>>('list_flows', {})
    const external = flows.find((f) => f.name === 'External')!.id
    const { node_id: sibling } = await again.call<{ node_id: string }>('chat_retry', {
      node_id: node,
      flow_id: external,
    })
    await again.next('chat_status', (s) => s.node_id === sibling && s.state === 'done')
    const context = await sentContext(again, sibling)
    const remembered = context.parts.filter((p) => p.kind === 'memory').map((p) => p.text)
    expect(remembered.join('')).toContain('Gym at seven') // memory is there, the road not taken is not
    expect(remembered.join('')).not.toContain('Dr. Sato')
  })

  it("Continue on a stopped Regenerate of a notification's reply still answers the notification", async () => {
    const { h, persona } = await withPersona()
    const node = await notify(h, persona, 'courier', 'Parcel at the door', 'It is here.')
    h.fake.script({
      promptIncludes: 'Parcel at the door',
      reply: 'Your parcel waits by the door.',
      chunks: ['Your parcel ', 'waits by the door.'],
      chunkDelayMs: 600_000,
      times: 1,
    })
    const streamed = h.next('node_stream', (d) => d.node_id !== node)
    const { node_id: sibling } = await h.call<{ node_id: string }>('chat_retry', { node_id: node })
    expect((await streamed).node_id).toBe(sibling)
    const stopped = h.next('chat_status', (s) => s.node_id === sibling && s.state === 'stopped')
    await h.call('chat_stop', { node_id: sibling })
    await stopped
    // Continued at once, as a window may: the stopped reply is no longer "still streaming".
    h.fake.script({ promptIncludes: 'Continue exactly', reply: 'waits by the door.', times: 1 })
    const done = h.next('chat_status', (s) => s.node_id === sibling && ['done', 'failed'].includes(s.state))
    await h.call('chat_continue', { node_id: sibling })
    expect(await done).toMatchObject({ state: 'done' })
    const sent = JSON.stringify((h.fake.requests.at(-1)!.body as Sent).messages)
    expect(sent).toContain('Parcel at the door')
    expect(sent).not.toContain('[courier]')
    // One memory of the notification from each node: the first answer's and the continued one's.
    const { units } = await h.call<{ units: Array<{ source: string; text: string }> }>('memory_list_units', {
      persona_id: persona,
      kind: 'episode',
    })
    expect(units.map((u) => [u.source, u.text]).sort()).toEqual([
      ['notification', 'User: Parcel at the door\nPersona: It is here.'],
      ['notification', 'User: Parcel at the door\nPersona: Your parcel waits by the door.'],
    ])
  })
})
