import { describe, expect, it } from 'vitest'
import { openaiConnector } from './openaiConnector'
import { connectorContract } from './testing/connectorContract'
import { askWithImage, png, useConnectorHarness, weatherTrip, withOptions } from './testing/connectorHarness'

const h = useConnectorHarness({
  provider: 'openai',
  model: 'gpt-4o-mini',
  make: (url, options) => openaiConnector({ provider: 'openai', apiKey: 'sk-test', baseURL: `${url}/v1`, ...options }),
})

describe('openaiConnector: what every connector does', () => {
  connectorContract(h, {
    embedModel: 'text-embedding-3-small',
    models: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small'],
    wrongKey: 'sk-wrong-key',
  })
})

describe('openaiConnector chat', () => {
  it('sends a streaming request with usage, the options, and JSON mode', async () => {
    expect(await h.sent(withOptions)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'be kind' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.3,
      max_tokens: 64,
      response_format: { type: 'json_object' },
    })
  })

  it('sends images as data-URL image_url parts', async () => {
    expect((await h.sent({ messages: askWithImage('describe') })).messages).toEqual([
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
    const { call, withTools, withResult } = await h.roundTripToolCall()
    const { tool } = weatherTrip
    expect(call).toEqual({ id: 'call_fake_1', name: 'get_weather', arguments: '{"city":"Kyoto"}' })
    expect(withTools.tools).toEqual([
      { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } },
    ])
    expect(withResult.messages).toEqual([
      { role: 'user', content: 'weather in Kyoto?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_fake_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Kyoto"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_fake_1', content: '{"celsius":21}' },
    ])
  })
})
