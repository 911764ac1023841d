import { ApiError, FinishReason, GoogleGenAI, Modality, Type } from '@google/genai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
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

describe('fake LLM: Gemini pictures', () => {
  const asPicture = { responseModalities: [Modality.IMAGE, Modality.TEXT] }
  const isPng = (b64: string | undefined) =>
    Buffer.from(b64 ?? '', 'base64')
      .subarray(0, 8)
      .equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))

  it('answers an image model asked for IMAGE with text and an inlineData PNG from the prompt', async () => {
    const ai = client()
    const draw = (contents: string) =>
      ai.models.generateContent({ model: 'gemini-2.5-flash-image', contents, config: asPicture })
    const fox = await draw('a fox')
    const parts = fox.candidates?.[0]?.content?.parts ?? []
    expect(parts[0]?.text).toEqual(expect.any(String))
    expect(parts[1]?.inlineData?.mimeType).toBe('image/png')
    expect(isPng(parts[1]?.inlineData?.data)).toBe(true)
    const again = (await draw('a fox')).candidates?.[0]?.content?.parts?.[1]?.inlineData?.data
    const owl = (await draw('an owl')).candidates?.[0]?.content?.parts?.[1]?.inlineData?.data
    expect(again).toBe(parts[1]?.inlineData?.data)
    expect(owl).not.toBe(parts[1]?.inlineData?.data)
    expect(fake.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash-image:generateContent',
      body: { generationConfig: { responseModalities: ['IMAGE', 'TEXT'] } },
    })
  })

  it('streams the picture as its own chunk', async () => {
    const stream = await client().models.generateContentStream({
      model: 'gemini-2.5-flash-image',
      contents: 'a fox',
      config: asPicture,
    })
    const pictures: string[] = []
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        if (part.inlineData?.data) pictures.push(part.inlineData.data)
      }
    }
    expect(pictures).toHaveLength(1)
    expect(isPng(pictures[0])).toBe(true)
  })

  it('refuses the IMAGE modality for a text model, as Gemini does', async () => {
    const failure = client().models.generateContent({ model: 'gemini-2.5-flash', contents: 'x', config: asPicture })
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toMatchObject({ status: 400, message: expect.stringContaining('modalities') })
  })

  it('lets image rules script a refusal in words, errors and prompts, leaving chat alone', async () => {
    fake.script({ provider: 'gemini', endpoint: 'image', promptIncludes: 'forbidden', reply: 'I cannot draw that.' })
    fake.script({ provider: 'gemini', endpoint: 'image', status: 503, times: 1 })
    const ai = client()
    const refused = await ai.models.generateContent({
      model: 'gemini-2.5-flash-image',
      contents: 'a forbidden thing',
      config: asPicture,
    })
    expect(refused.candidates?.[0]?.content?.parts).toEqual([{ text: 'I cannot draw that.' }])
    expect(await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).toMatchObject({
      text: 'echo: hi',
    })
    await expect(
      ai.models.generateContent({ model: 'gemini-2.5-flash-image', contents: 'a cat', config: asPicture }),
    ).rejects.toMatchObject({ status: 503 })
  })

  // Why the fake has no Imagen `:predict` route: the SDK no longer calls one on the Gemini API.
  it('is never asked for Imagen: the SDK refuses generateImages outside Vertex AI', async () => {
    // The SDK also warns that generateImages is deprecated; that is not this test's output.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const failure = client().models.generateImages({ model: 'imagen-4.0-generate-001', prompt: 'a fox' })
      await expect(failure).rejects.toThrow(/only supported by/)
      expect(fake.requests).toEqual([])
    } finally {
      warn.mockRestore()
    }
  })
})
