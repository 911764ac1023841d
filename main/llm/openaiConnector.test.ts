import { describe, expect, it } from 'vitest'
import { openaiConnector } from './openaiConnector'
import { connectorContract, moodSchema } from '../../tests/support/llm/connectorContract'
import {
  askWithImage,
  pictureBytes,
  png,
  useConnectorHarness,
  weatherTrip,
  withOptions,
} from '../../tests/support/llm/connectorHarness'
import { imageContract } from '../../tests/support/llm/imageContract'

const h = useConnectorHarness({
  provider: 'openai',
  model: 'gpt-4o-mini',
  make: (url, options) => openaiConnector({ provider: 'openai', apiKey: 'sk-test', baseURL: `${url}/v1`, ...options }),
})

describe('openaiConnector: what every connector does', () => {
  connectorContract(h, {
    embedModel: 'text-embedding-3-small',
    models: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small', 'gpt-image-1', 'dall-e-3'],
    wrongKey: 'sk-wrong-key',
  })
})

describe('openaiConnector structured output', () => {
  it('sends the schema as a strict json_schema response_format', async () => {
    const body = await h.sent({ jsonSchema: moodSchema })
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'mood_check', schema: moodSchema.schema, strict: true },
    })
    // Strict: every property required (the optional one may be null), no others allowed.
    expect(moodSchema.schema).toMatchObject({
      required: ['mood', 'tags', 'note'],
      additionalProperties: false,
      properties: { note: { type: ['string', 'null'] }, tags: { items: { type: 'string' } } },
    })
  })

  it('surfaces OpenAI’s refusal of a schema strict mode cannot take', async () => {
    const loose = { name: 'loose', schema: { type: 'object', properties: { a: { type: 'string' } } } }
    const { error } = await h.failing({ jsonSchema: loose })
    expect(error).toMatchObject({ failure: 'bad_request', retryable: false })
    expect(error.message).toMatch(/additionalProperties/)
  })
})

describe('openaiConnector generateImage: what every drawing connector does', () => {
  imageContract(h, { imageModel: 'gpt-image-1', wrongKey: 'sk-wrong-key' })
})

describe('openaiConnector generateImage', () => {
  const draw = (model: string, prompt = 'a lighthouse') => h.connector().generateImage({ model, prompt })

  it('asks a GPT image model without response_format, which it would refuse', async () => {
    pictureBytes(await draw('gpt-image-1'))
    expect(h.fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/images/generations' })
    expect(h.lastBody()).toEqual({ model: 'gpt-image-1', prompt: 'a lighthouse', n: 1 })
  })

  it('asks DALL·E for base64, since it would otherwise answer a link', async () => {
    pictureBytes(await draw('dall-e-3'))
    expect(h.lastBody()).toEqual({ model: 'dall-e-3', prompt: 'a lighthouse', n: 1, response_format: 'b64_json' })
    expect(h.fake.requests).toHaveLength(1)
  })

  it('fetches the picture when the server answers a link', async () => {
    // A model the fake treats like DALL·E, which the connector does not know to ask for base64.
    h.fake.script({ provider: 'openai', model: 'local-painter', endpoint: 'image' })
    const bytes = pictureBytes(await draw('local-painter'))
    const [generate, fetched] = h.fake.requests
    expect(generate?.body).toEqual({ model: 'local-painter', prompt: 'a lighthouse', n: 1 })
    expect(fetched).toMatchObject({ method: 'GET', path: expect.stringMatching(/^\/openai-files\/images\/.+\.png$/) })
    // The link is pre-signed storage: the key stays with the API.
    expect(fetched?.headers.authorization).toBeUndefined()
    expect(bytes.length).toBeGreaterThan(50)
  })

  it('works the same through OpenRouter, naming it in errors', async () => {
    const router = openaiConnector({ provider: 'openrouter', apiKey: 'sk-wrong', baseURL: `${h.fake.url}/v1` })
    await expect(router.generateImage({ model: 'gpt-image-1', prompt: 'x' })).rejects.toMatchObject({
      failure: 'auth',
      message: 'invalid API key for OpenRouter',
    })
  })

  it('names the parameter OpenAI refused', async () => {
    const refused = h.connector().generateImage({ model: 'gpt-image-1', prompt: '' })
    await expect(refused).rejects.toMatchObject({
      failure: 'bad_request',
      message: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\) refused the request: Missing required parameter: 'prompt'\.$/,
      ),
    })
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
