import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../testing/fakeLlm'
import { LlmError } from './llmError'
import { openaiConnector, type OpenAiConfig } from './openaiConnector'
import type { ChatEvent, ChatMessage, ChatRequest, ToolSpec } from './types'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

const model = 'gpt-4o-mini'
const connector = (options: Partial<OpenAiConfig> = {}) =>
  openaiConnector({ provider: 'openai', apiKey: 'sk-test', baseURL: `${fake.url}/v1`, ...options })
const ask = (text: string): ChatMessage[] => [{ role: 'user', content: text }]
const png = 'iVBORw0KGgo='
const lookUp: ToolSpec = {
  name: 'look_up',
  description: 'Look a word up',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
}

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

/** Runs a chat that must fail; returns the error and the events seen before it. */
async function failing(request: Partial<ChatRequest>, options: Partial<OpenAiConfig> = {}) {
  const seen: ChatEvent[] = []
  try {
    for await (const event of connector(options).chat({ model, messages: ask('hi'), ...request })) seen.push(event)
  } catch (e) {
    expect(e).toBeInstanceOf(LlmError)
    return { error: e as LlmError, seen }
  }
  throw new Error('the chat did not fail')
}

const deltas = (events: ChatEvent[]) => events.flatMap((e) => (e.type === 'delta' ? [e.text] : []))
const lastBody = () => fake.requests.at(-1)?.body as Record<string, unknown>

describe('openaiConnector chat', () => {
  it('streams text deltas in order, then done with usage and finish reason', async () => {
    fake.script({ provider: 'openai', chunks: ['Hello ', 'there, ', 'world'] })
    const events = await collect(connector().chat({ model, messages: ask('hi'), json: true, temperature: 0.5 }))
    expect(deltas(events)).toEqual(['Hello ', 'there, ', 'world'])
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      finish_reason: 'stop',
      usage: { completion_tokens: expect.any(Number) },
    })
    expect(lastBody()).toMatchObject({ stream: true, temperature: 0.5, response_format: { type: 'json_object' } })
  })

  it('sends images as data-URL image_url parts', async () => {
    await collect(
      connector().chat({
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'describe' },
              { type: 'image', mime: 'image/png', data_base64: png },
            ],
          },
        ],
      }),
    )
    expect(lastBody().messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'describe' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
        ],
      },
    ])
  })

  it('round-trips a tool call: tool_call event, then the result sent as a tool message', async () => {
    fake.script({
      provider: 'openai',
      reply: { toolCalls: [{ name: 'look_up', arguments: { query: 'tea' } }] },
      times: 1,
    })
    fake.script({ provider: 'openai', reply: 'Tea is a drink.' })
    const openai = connector()
    const first = await collect(openai.chat({ model, messages: ask('what is tea?'), tools: [lookUp] }))
    const call = first.find((e) => e.type === 'tool_call')?.call
    expect(call).toEqual({ id: 'call_fake_1', name: 'look_up', arguments: '{"query":"tea"}' })
    expect(first.at(-1)).toMatchObject({ type: 'done', finish_reason: 'tool_calls' })

    if (!call) throw new Error('no tool call')
    const second = await collect(
      openai.chat({
        model,
        tools: [lookUp],
        messages: [
          ...ask('what is tea?'),
          { role: 'assistant', content: '', tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, name: 'look_up', content: 'a drink' },
        ],
      }),
    )
    expect(deltas(second).join('')).toBe('Tea is a drink.')
    expect(lastBody().messages).toEqual([
      { role: 'user', content: 'what is tea?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_fake_1', type: 'function', function: { name: 'look_up', arguments: '{"query":"tea"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_fake_1', content: 'a drink' },
    ])
  })

  // The openai SDK's stream ends quietly when aborted: the connector must still say "aborted".
  it('stops with an aborted LlmError when the signal fires mid-stream', async () => {
    fake.script({ provider: 'openai', chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 300 })
    const controller = new AbortController()
    const seen: ChatEvent[] = []
    const run = async () => {
      for await (const event of connector().chat({ model, messages: ask('go'), signal: controller.signal })) {
        seen.push(event)
        controller.abort()
      }
    }
    await expect(run()).rejects.toMatchObject({ failure: 'aborted' })
    expect(deltas(seen)).toEqual(['a'])
  })

  it('stops with an aborted LlmError when the signal fires before the reply starts', async () => {
    fake.script({ provider: 'openai', delayMs: 1000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const { error } = await failing({ signal: controller.signal })
    expect(error).toMatchObject({ failure: 'aborted', retryable: false })
  })

  it('maps a wrong key to auth', async () => {
    const { error } = await failing({}, { apiKey: 'sk-wrong-key' })
    expect(error).toMatchObject({ failure: 'auth', message: 'invalid API key for OpenAI', retryable: false })
    expect(error.message).not.toContain('sk-wrong')
  })

  it('maps an unknown model to not_found', async () => {
    const { error } = await failing({ model: 'gpt-nope' })
    expect(error).toMatchObject({ failure: 'not_found', message: 'model not found on OpenAI: gpt-nope' })
  })

  it('maps 429 to a retryable rate_limited with Retry-After, without retrying inside', async () => {
    fake.script({ provider: 'openai', status: 429, retryAfterMs: 3000 })
    const { error } = await failing({})
    expect(error).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterMs: 3000 })
    expect(fake.requests).toHaveLength(1)
  })

  it('fails with an LlmError after the deltas when the connection drops mid-stream', async () => {
    fake.script({ provider: 'openai', chunks: ['one ', 'two ', 'three'], disconnectAfterChunks: 2 })
    const { error, seen } = await failing({})
    expect(deltas(seen)).toEqual(['one ', 'two '])
    expect(error).toMatchObject({ failure: 'unavailable' })
  })

  it('times out when the stream goes silent for longer than idleTimeoutMs', async () => {
    fake.script({ provider: 'openai', chunks: ['a', 'b'], chunkDelayMs: 1000 })
    const { error, seen } = await failing({}, { idleTimeoutMs: 150 })
    expect(deltas(seen)).toEqual(['a'])
    expect(error).toMatchObject({ failure: 'timeout', retryable: true })
  })

  it('times out when the response does not start within connectTimeoutMs', async () => {
    fake.script({ provider: 'openai', delayMs: 1000 })
    const { error } = await failing({}, { connectTimeoutMs: 150 })
    expect(error).toMatchObject({ failure: 'timeout' })
  })

  it('reports an unreachable server as unavailable', async () => {
    const url = fake.url
    await fake.close()
    const down = openaiConnector({ provider: 'openai', apiKey: 'sk-test', baseURL: `${url}/v1` })
    await expect(collect(down.chat({ model, messages: ask('hi') }))).rejects.toMatchObject({ failure: 'unavailable' })
  })
})

describe('openaiConnector embed and listModels', () => {
  it('embeds each input to a vector of the model’s length', async () => {
    const vectors = await connector().embed({ model: 'text-embedding-3-small', input: ['a cat', 'a dog'] })
    expect(vectors).toHaveLength(2)
    expect(vectors.every((v) => v.length === 8)).toBe(true)
    expect(vectors[0]).not.toEqual(vectors[1])
  })

  it('lists models as provider refs', async () => {
    const models = await connector().listModels()
    expect(models).toContainEqual({ id: 'gpt-4o-mini', ref: 'openai:gpt-4o-mini' })
    await expect(connector({ apiKey: 'sk-wrong-key' }).listModels()).rejects.toMatchObject({ failure: 'auth' })
  })
})
