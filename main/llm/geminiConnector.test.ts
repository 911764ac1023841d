import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../testing/fakeLlm'
import { geminiConnector, type GeminiConfig } from './geminiConnector'
import { LlmError } from './llmError'
import type { ChatEvent, ChatMessage, ChatRequest, ToolSpec } from './types'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

const model = 'gemini-2.5-flash'
const connector = (options: Partial<GeminiConfig> = {}) =>
  geminiConnector({ apiKey: 'gemini-test', baseURL: fake.url, ...options })
const ask = (text: string): ChatMessage[] => [{ role: 'user', content: text }]
const png = 'iVBORw0KGgo='
const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

/** Runs a chat that must fail; returns the error and the events seen before it. */
async function failing(request: Partial<ChatRequest>, options: Partial<GeminiConfig> = {}) {
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

describe('geminiConnector chat', () => {
  it('streams text deltas in order, then done with usage and finish reason', async () => {
    fake.script({ provider: 'gemini', chunks: ['Hel', 'lo ', 'from Gemini'] })
    const events = await collect(
      connector().chat({
        model,
        messages: [{ role: 'system', content: 'be kind' }, ...ask('hi')],
        temperature: 0.3,
        maxTokens: 64,
        json: true,
      }),
    )
    expect(deltas(events)).toEqual(['Hel', 'lo ', 'from Gemini'])
    expect(events.at(-1)).toEqual({
      type: 'done',
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
      finish_reason: 'stop',
    })
    const done = events.at(-1) as Extract<ChatEvent, { type: 'done' }>
    expect(done.usage?.completion_tokens).toBeGreaterThan(0)
    expect(fake.requests.at(-1)?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent')
    expect(lastBody()).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'be kind' }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 64, responseMimeType: 'application/json' },
    })
  })

  it('sends images as inlineData parts', async () => {
    await collect(
      connector().chat({
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image', mime: 'image/png', data_base64: png },
            ],
          },
        ],
      }),
    )
    expect(lastBody().contents).toEqual([
      { role: 'user', parts: [{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: png } }] },
    ])
  })

  it('round-trips a tool call: tool_call event, then the result sent as a functionResponse', async () => {
    fake.script({
      provider: 'gemini',
      reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Kyoto' } }] },
      times: 1,
    })
    fake.script({ provider: 'gemini', reply: 'It is 21 °C.' })
    const gemini = connector()
    const first = await collect(gemini.chat({ model, messages: ask('weather in Kyoto?'), tools: [weather] }))
    const call = first.find((e) => e.type === 'tool_call')?.call
    expect(call).toMatchObject({ name: 'get_weather', id: expect.any(String) })
    expect(JSON.parse(call?.arguments ?? '')).toEqual({ city: 'Kyoto' })
    expect(first.at(-1)).toMatchObject({ type: 'done', finish_reason: 'tool_calls' })
    expect(lastBody().tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: weather.description, parametersJsonSchema: weather.parameters },
        ],
      },
    ])

    if (!call) throw new Error('no tool call')
    const second = await collect(
      gemini.chat({
        model,
        tools: [weather],
        messages: [
          ...ask('weather in Kyoto?'),
          { role: 'assistant', content: '', tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, name: 'get_weather', content: '{"celsius":21}' },
        ],
      }),
    )
    expect(deltas(second).join('')).toBe('It is 21 °C.')
    // The fake gave no call id, so none is sent back; the result travels as an object.
    expect(lastBody().contents).toEqual([
      { role: 'user', parts: [{ text: 'weather in Kyoto?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Kyoto' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { celsius: 21 } } }] },
    ])
  })

  it('puts parallel tool results in one turn, wraps plain-text results, and signs replays for Gemini 3', async () => {
    fake.script({ provider: 'gemini', model: 'gemini-3-flash' })
    const calls = [
      { id: 'c1', name: 'get_weather', arguments: '{"city":"Kyoto"}' },
      { id: 'c2', name: 'get_weather', arguments: '{"city":"Nara"}' },
    ]
    await collect(
      connector().chat({
        model: 'gemini-3-flash',
        messages: [
          ...ask('weather?'),
          { role: 'assistant', content: 'Checking.', tool_calls: calls },
          { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'sunny' },
          { role: 'tool', tool_call_id: 'c2', name: 'get_weather', content: '{"sky":"rain"}' },
        ],
      }),
    )
    const signature = 'skip_thought_signature_validator'
    expect(lastBody().contents).toEqual([
      { role: 'user', parts: [{ text: 'weather?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Kyoto' } }, thoughtSignature: signature },
          { functionCall: { id: 'c2', name: 'get_weather', args: { city: 'Nara' } }, thoughtSignature: signature },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'get_weather', response: { output: 'sunny' } } },
          { functionResponse: { id: 'c2', name: 'get_weather', response: { sky: 'rain' } } },
        ],
      },
    ])
  })

  it('stops with an aborted LlmError when the signal fires mid-stream', async () => {
    fake.script({ provider: 'gemini', chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 300 })
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
    fake.script({ provider: 'gemini', delayMs: 1000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const { error } = await failing({ signal: controller.signal })
    expect(error).toMatchObject({ failure: 'aborted', retryable: false })
  })

  it('maps a wrong key (Google answers 400) to auth', async () => {
    const { error } = await failing({}, { apiKey: 'wrong-key' })
    expect(error).toMatchObject({ failure: 'auth', message: 'invalid API key for Gemini', retryable: false })
  })

  it('maps an unknown model to not_found', async () => {
    const { error } = await failing({ model: 'gemini-9-ultra' })
    expect(error).toMatchObject({ failure: 'not_found', message: 'model not found on Gemini: gemini-9-ultra' })
  })

  it('maps 429 to a retryable rate_limited with the RetryInfo delay', async () => {
    fake.script({ provider: 'gemini', status: 429, retryAfterMs: 2500 })
    const { error } = await failing({})
    expect(error).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterMs: 2500 })
  })

  it('maps a 503 to unavailable', async () => {
    fake.script({ provider: 'gemini', status: 503 })
    expect((await failing({})).error).toMatchObject({ failure: 'unavailable', retryable: true })
  })

  it('fails with an LlmError after the deltas when the connection drops mid-stream', async () => {
    fake.script({ provider: 'gemini', chunks: ['a', 'b', 'c'], disconnectAfterChunks: 2 })
    const { error, seen } = await failing({})
    expect(deltas(seen)).toEqual(['a', 'b'])
    expect(error).toMatchObject({ failure: 'unavailable' })
    // No silent second attempt inside the connector.
    expect(fake.requests).toHaveLength(1)
  })

  it('times out when the stream goes silent for longer than idleTimeoutMs', async () => {
    fake.script({ provider: 'gemini', chunks: ['a', 'b'], chunkDelayMs: 1000 })
    const { error, seen } = await failing({}, { idleTimeoutMs: 150 })
    expect(deltas(seen)).toEqual(['a'])
    expect(error).toMatchObject({ failure: 'timeout', retryable: true })
  })

  it('times out when the response does not start within connectTimeoutMs', async () => {
    fake.script({ provider: 'gemini', delayMs: 1000 })
    const { error } = await failing({}, { connectTimeoutMs: 150 })
    expect(error).toMatchObject({ failure: 'timeout' })
  })

  it('reports an unreachable server as unavailable', async () => {
    const url = fake.url
    await fake.close()
    const down = geminiConnector({ apiKey: 'gemini-test', baseURL: url })
    await expect(collect(down.chat({ model, messages: ask('hi') }))).rejects.toMatchObject({ failure: 'unavailable' })
  })
})

describe('geminiConnector embed and listModels', () => {
  it('embeds each input to a vector of the model’s length, batching past 100', async () => {
    const input = Array.from({ length: 130 }, (_, i) => `text ${i}`)
    const vectors = await connector().embed({ model: 'gemini-embedding-001', input })
    expect(vectors).toHaveLength(130)
    expect(vectors.every((v) => v.length === 8)).toBe(true)
    expect(vectors[0]).not.toEqual(vectors[1])
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
    ])
  })

  it('maps embed errors like chat errors', async () => {
    await expect(
      connector({ apiKey: 'nope' }).embed({ model: 'gemini-embedding-001', input: ['a'] }),
    ).rejects.toMatchObject({
      failure: 'auth',
    })
  })

  it('lists models as gemini: refs without the models/ prefix', async () => {
    const models = await connector().listModels()
    expect(models).toContainEqual({ id: 'gemini-2.5-flash', ref: 'gemini:gemini-2.5-flash' })
    expect(models.map((m) => m.id)).toEqual([...models.map((m) => m.id)].sort())
    await expect(connector({ apiKey: 'nope' }).listModels()).rejects.toMatchObject({ failure: 'auth' })
  })
})
