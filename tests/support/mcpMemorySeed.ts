import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { expect } from 'vitest'
import { exchange, type LlmHarness } from './llmCore'

/**
 * What the memory server's tests read: Mika, with one conversation whose turn is an episode in
 * her memory, a fact, and a SECRET fact (a card number) that must never leave; and Ren, with a
 * conversation of his own that a server for Mika must not show.
 */
/** The SECRET fact's card number, spaced as written: a random id in a result cannot hold it by chance. */
export const SECRET_CARD = '4111 1111 1111 1111'

export async function seedMemory(h: LlmHarness) {
  const mika = await h.call<{ id: string }>('create_persona', { name: 'Mika' })
  const other = await h.call<{ id: string }>('create_persona', { name: 'Ren' })
  const flow = await h.call<{ id: string }>('create_flow', { name: 'Pets', persona_id: mika.id })
  await h.call('create_flow', { name: 'Ren talk', persona_id: other.id })
  const first = await exchange(h, { flowId: flow.id, prompt: 'I adopted a cat named Pepper.', reply: 'Pepper!' })
  await h.call('memory_add_unit', { persona_id: mika.id, kind: 'fact', text: 'Pepper is a tabby cat.' })
  await h.call('memory_add_unit', {
    persona_id: mika.id,
    kind: 'fact',
    text: `Pepper vet bill paid with card ${SECRET_CARD}.`,
    sensitivity: 'secret',
  })
  return { mika, flow, first }
}

/** The text of a tool's result. */
export const resultText = (r: unknown) =>
  (r as { content: Array<{ text: string }> }).content.map((c) => c.text).join('\n')

/**
 * What an agent sees of Mika's memory through a server for her alone (stdio or HTTP): the
 * read-only tools, and a search that finds her fact and the episode with the conversation it
 * came from, never the SECRET unit.
 */
export async function expectMikasMemory(client: Client, seeded: Awaited<ReturnType<typeof seedMemory>>) {
  const tools = (await client.listTools()).tools.map((t) => t.name).sort()
  expect(tools).toEqual(['list_conversations', 'memory_pack', 'memory_search', 'read_node'])
  const search = await client.callTool({ name: 'memory_search', arguments: { query: 'Pepper' } })
  const found = JSON.parse(resultText(search)) as {
    persona: string
    units: Array<{ text: string; conversation: { id: string; name: string } | null; node_id: string | null }>
  }
  expect(found.persona).toBe('Mika')
  expect(found.units.map((u) => u.text).join('\n')).toContain('Pepper is a tabby cat.')
  const episode = found.units.find((u) => u.node_id === seeded.first)
  expect(episode?.conversation).toEqual({ id: seeded.flow.id, name: 'Pets' })
  expect(resultText(search)).not.toContain(SECRET_CARD)
}
