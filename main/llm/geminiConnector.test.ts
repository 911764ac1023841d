import { describe, expect, it } from 'vitest'
import { geminiConnector } from './geminiConnector'
import { connectorContract, moodSchema } from '../../tests/support/llm/connectorContract'
import {
  ask,
  askWithImage,
  pictureBytes,
  png,
  useConnectorHarness,
  weatherTrip,
  withOptions,
} from '../../tests/support/llm/connectorHarness'
import { imageContract } from '../../tests/support/llm/imageContract'

const h = useConnectorHarness({
  provider: 'gemini',
  model: 'gemini-2.5-flash',
  make: (url, options) => geminiConnector({ apiKey: 'gemini-test', baseURL: url, ...options }),
})

describe('geminiConnector: what every connector does', () => {
  // The wrong key is answered as Google does, with 400 INVALID_ARGUMENT rather than 401.
  connectorContract(h, {
    embedModel: 'gemini-embedding-001',
    models: [
      'gemini-2.5-flash',
      'gemini-2.0-flash',
      'gemini-embedding-001',
      'text-embedding-004',
      'gemini-2.5-flash-image',
    ],
    wrongKey: 'wrong-key',
  })
})

describe('geminiConnector generateImage: what every drawing connector does', () => {
  imageContract(h, { imageModel: 'gemini-2.5-flash-image', wrongKey: 'wrong-key' })
})

describe('geminiConnector generateImage', () => {
  const imageModel = 'gemini-2.5-flash-image'
  const draw = (model = imageModel, prompt = 'a lighthouse') => h.connector().generateImage({ model, prompt })

  it('asks generateContent for the IMAGE modality and takes the picture beside the text', async () => {
    // The fake answers a line of text first, then the picture, as Gemini image models do.
    pictureBytes(await draw())
    expect(h.fake.requests.at(-1)?.path).toBe(`/v1beta/models/${imageModel}:generateContent`)
    expect(h.lastBody()).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse' }] }],
      generationConfig: { responseModalities: ['IMAGE', 'TEXT'] },
    })
  })

  it('says so when the model answers in words without a picture', async () => {
    h.fake.script({ provider: 'gemini', endpoint: 'image', reply: 'I cannot draw that.' })
    await expect(draw()).rejects.toMatchObject({
      failure: 'bad_request',
      message: `${imageModel} answered without a picture`,
    })
  })

  it('passes on Gemini’s refusal when a text model is asked for a picture', async () => {
    await expect(draw('gemini-2.5-flash')).rejects.toMatchObject({
      failure: 'bad_request',
      message: 'Gemini refused the request: Model does not support the requested response modalities: image',
    })
  })

  it('refuses Imagen models by name, without a request, since Gemini no longer serves them', async () => {
    await expect(draw('imagen-4.0-generate-001')).rejects.toMatchObject({
      failure: 'bad_request',
      message: expect.stringMatching(/^imagen-4\.0-generate-001 is an Imagen model.*gemini-2\.5-flash-image/),
    })
    expect(h.fake.requests).toEqual([])
  })
})

describe('geminiConnector chat', () => {
  it('sends the system prompt as systemInstruction and the options as generationConfig', async () => {
    expect(await h.sent(withOptions)).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'be kind' }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 64, responseMimeType: 'application/json' },
    })
    expect(h.fake.requests.at(-1)?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent')
  })

  it('sends images as inlineData parts', async () => {
    expect((await h.sent({ messages: askWithImage('what is this?') })).contents).toEqual([
      { role: 'user', parts: [{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: png } }] },
    ])
  })

  it('round-trips a tool call: tool_call event, then the result sent as a functionResponse', async () => {
    const { withTools, withResult } = await h.roundTripToolCall()
    const { tool } = weatherTrip
    expect(withTools.tools).toEqual([
      {
        functionDeclarations: [
          { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters },
        ],
      },
    ])
    // The fake gave no call id, so none is sent back; the result travels as an object.
    expect(withResult.contents).toEqual([
      { role: 'user', parts: [{ text: 'weather in Kyoto?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Kyoto' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { celsius: 21 } } }] },
    ])
  })

  it('puts parallel tool results in one turn, wraps plain-text results, and signs replays for Gemini 3', async () => {
    h.fake.script({ provider: 'gemini', model: 'gemini-3-flash' })
    const calls = [
      { id: 'c1', name: 'get_weather', arguments: '{"city":"Kyoto"}' },
      { id: 'c2', name: 'get_weather', arguments: '{"city":"Nara"}' },
    ]
    const sent = await h.sent({
      model: 'gemini-3-flash',
      messages: [
        ...ask('weather?'),
        { role: 'assistant', content: 'Checking.', tool_calls: calls },
        { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'sunny' },
        { role: 'tool', tool_call_id: 'c2', name: 'get_weather', content: '{"sky":"rain"}' },
      ],
    })
    const signature = 'skip_thought_signature_validator'
    expect(sent.contents).toEqual([
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

  it('reads a fractional RetryInfo delay on 429', async () => {
    h.fake.script({ provider: 'gemini', status: 429, retryAfterMs: 2500 })
    const { error } = await h.failing()
    expect(error).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterMs: 2500 })
  })
})

describe('geminiConnector structured output', () => {
  it('sends the schema as responseSchema in Gemini’s own form, with the JSON mime type', async () => {
    const body = await h.sent({ jsonSchema: moodSchema })
    expect(body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        required: ['mood', 'tags', 'note'],
        properties: {
          mood: { type: 'STRING', enum: ['calm', 'tense'] },
          tags: { type: 'ARRAY', maxItems: 3, items: { type: 'STRING' } },
          note: { type: 'STRING', nullable: true },
        },
      },
    })
    expect(JSON.stringify(body.generationConfig)).not.toContain('additionalProperties')
  })
})

describe('geminiConnector embed', () => {
  it('batches past 100 inputs, keeping one vector per input', async () => {
    const input = Array.from({ length: 130 }, (_, i) => `text ${i}`)
    const vectors = await h.connector().embed({ model: 'gemini-embedding-001', input })
    expect(vectors).toHaveLength(130)
    expect(vectors.every((v) => v.length === 8)).toBe(true)
    expect(vectors[0]).not.toEqual(vectors[1])
    expect(h.fake.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
      '/v1beta/models/gemini-embedding-001:batchEmbedContents',
    ])
  })
})
