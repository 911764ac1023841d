import { ApiError, FinishReason, GoogleGenAI, Type } from '@google/genai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from './index'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

const client = (apiKey = 'gemini-test') => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: fake.url } })

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } },
    },
  ],
}

describe('fake LLM: Gemini', () => {
  it('streams generateContent as SSE chunks ending with STOP and usage', async () => {
    fake.script({ provider: 'gemini', chunks: ['Hel', 'lo ', 'from Gemini'] })
    const stream = await client().models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      config: { systemInstruction: 'be kind' },
    })
    const texts: string[] = []
    const finishes: Array<string | undefined> = []
    let totalTokens: number | undefined
    for await (const chunk of stream) {
      if (chunk.text) texts.push(chunk.text)
      finishes.push(chunk.candidates?.[0]?.finishReason)
      totalTokens = chunk.usageMetadata?.totalTokenCount ?? totalTokens
    }
    expect(texts).toEqual(['Hel', 'lo ', 'from Gemini'])
    expect(finishes.at(-1)).toBe(FinishReason.STOP)
    expect(totalTokens).toBeGreaterThan(0)
    expect(fake.requests.at(-1)).toMatchObject({
      provider: 'gemini',
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      query: { alt: 'sse' },
      model: 'gemini-2.5-flash',
      body: { systemInstruction: { parts: [{ text: 'be kind' }] } },
    })
  })

  it('echoes the last user turn by default in a plain generateContent', async () => {
    const reply = await client().models.generateContent({
      model: 'gemini-2.0-flash',
      contents: [
        { role: 'user', parts: [{ text: 'first' }] },
        { role: 'model', parts: [{ text: 'ok' }] },
        { role: 'user', parts: [{ text: 'second' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      ],
    })
    expect(reply.text).toBe('echo: second')
  })

  it('returns scripted function calls, plain and streamed', async () => {
    fake.script({ reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Kyoto' } }] } })
    const request = {
      model: 'gemini-2.5-flash',
      contents: 'weather?',
      config: { tools: [weatherTool] },
    }
    const plain = await client().models.generateContent(request)
    expect(plain.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Kyoto' } }])

    const calls: unknown[] = []
    for await (const chunk of await client().models.generateContentStream(request)) {
      calls.push(...(chunk.functionCalls ?? []))
    }
    expect(calls).toEqual([{ name: 'get_weather', args: { city: 'Kyoto' } }])
    expect(fake.requests.at(-1)?.body).toMatchObject({ tools: [{ functionDeclarations: [{ name: 'get_weather' }] }] })
  })

  it('embeds contents deterministically, honouring outputDimensionality', async () => {
    const ai = client()
    const result = await ai.models.embedContent({
      model: 'gemini-embedding-001',
      contents: ['a cat', 'a dog'],
      config: { outputDimensionality: 16 },
    })
    const again = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'a cat' })
    const [cat, dog] = (result.embeddings ?? []).map((e) => e.values ?? [])
    expect(cat).toHaveLength(16)
    expect(cat).not.toEqual(dog)
    expect(again.embeddings?.[0]?.values).toHaveLength(8)
  })

  it('rejects a wrong key with an ApiError carrying Google’s error body', async () => {
    const failure = client('wrong-key').models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toMatchObject({ status: 400, message: expect.stringContaining('API_KEY_INVALID') })
  })

  it('accepts the key as a `key` query parameter and keeps it out of the record', async () => {
    const res = await fetch(`${fake.url}/v1beta/models?key=gemini-test`)
    expect(res.status).toBe(200)
    const noKey = await fetch(`${fake.url}/v1beta/models`)
    expect(noKey.status).toBe(403)
    expect(await noKey.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } })
    expect(fake.requests[0]?.query).toEqual({})
  })

  it('maps scripted failures and unknown models to ApiError statuses', async () => {
    fake.script({ provider: 'gemini', status: 429, times: 1 })
    const ai = client()
    await expect(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('RESOURCE_EXHAUSTED'),
    })
    await expect(ai.models.generateContent({ model: 'gemini-9', contents: 'hi' })).rejects.toMatchObject({
      status: 404,
    })
  })

  it('cuts a stream mid-way so the SDK throws after the first chunks', async () => {
    fake.script({ chunks: ['a', 'b', 'c'], disconnectAfterChunks: 1 })
    const texts: string[] = []
    const consume = async () => {
      const stream = await client().models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'go' })
      for await (const chunk of stream) texts.push(chunk.text ?? '')
    }
    await expect(consume()).rejects.toThrow()
    expect(texts).toEqual(['a'])
  })

  it('lists the configured models', async () => {
    const names: string[] = []
    for await (const model of await client().models.list()) names.push(model.name ?? '')
    expect(names).toContain('models/gemini-2.5-flash')
  })
})
