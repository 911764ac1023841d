import { exchange, type LlmHarness } from './llmCore'

/**
 * What the memory server's tests read: Mika, with one conversation whose turn is an episode in
 * her memory, a fact, and a SECRET fact (a card number) that must never leave; and Ren, with a
 * conversation of his own that a server for Mika must not show.
 */
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
    text: 'Pepper vet bill paid with card 4111 1111 1111 1111.',
    sensitivity: 'secret',
  })
  return { mika, flow, first }
}

/** The text of a tool's result. */
export const resultText = (r: unknown) =>
  (r as { content: Array<{ text: string }> }).content.map((c) => c.text).join('\n')
