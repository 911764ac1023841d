import OpenAI, { AuthenticationError, BadRequestError, NotFoundError, RateLimitError } from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from './index'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

const client = (options: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1`, ...options })

describe('fake LLM: OpenAI-compatible chat', () => {
  it('streams the scripted reply as deltas, then a finish and a usage chunk', async () => {
    fake.script({ provider: 'openai', reply: 'Hello there, world' })
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    const deltas: string[] = []
    const finishes: Array<string | null> = []
    let usage: OpenAI.CompletionUsage | null | undefined
    for await (const chunk of stream) {
      const choice = chunk.choices[0]
      if (choice?.delta.content) deltas.push(choice.delta.content)
      if (choice?.finish_reason) finishes.push(choice.finish_reason)
      if (chunk.usage) usage = chunk.usage
    }
    expect(deltas).toEqual(['Hello ', 'there, ', 'world'])
    expect(finishes).toEqual(['stop'])
    expect(usage?.completion_tokens).toBeGreaterThan(0)
  })

  it('splits the reply as `chunks` say and echoes the last user message by default', async () => {
    fake.script({ chunks: ['こん', 'にちは'], times: 1 })
    const openai = client()
    const first = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'a' }],
      stream: true,
    })
    let text = ''
    for await (const chunk of first) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe('こんにちは')

    const second = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'second question' },
      ],
    })
    expect(second.choices[0]?.message.content).toBe('echo: second question')
    expect(second.choices[0]?.finish_reason).toBe('stop')
  })

  it('streams tool calls that the SDK reassembles into whole calls', async () => {
    fake.script({
      reply: { toolCalls: [{ name: 'look_up', arguments: { query: 'tea', limit: 3 } }, { name: 'now' }] },
    })
    const runner = client().chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'find tea' }],
      tools: [
        { type: 'function', function: { name: 'look_up', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
      ],
    })
    const completion = await runner.finalChatCompletion()
    const choice = completion.choices[0]
    expect(choice?.finish_reason).toBe('tool_calls')
    const calls = (choice?.message.tool_calls ?? []).map((call) =>
      call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : null,
    )
    expect(calls).toEqual([
      ['look_up', { query: 'tea', limit: 3 }],
      ['now', {}],
    ])
    // Ids count up within one fake, so a test can assert what the app sends back with the tool result.
    expect(choice?.message.tool_calls?.map((call) => call.id)).toEqual(['call_fake_1', 'call_fake_2'])
  })

  it('returns scripted JSON text as is and records what the app sent, images included, without the key', async () => {
    fake.script({ reply: '{"mood":"calm"}' })
    const reply = await client().chat.completions.create({
      model: 'gpt-4o',
      response_format: { type: 'json_object' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'describe' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    })
    expect(JSON.parse(reply.choices[0]?.message.content ?? '')).toEqual({ mood: 'calm' })

    const sent = fake.requests.at(-1)
    expect(sent).toMatchObject({ provider: 'openai', method: 'POST', path: '/v1/chat/completions', model: 'gpt-4o' })
    expect(sent?.body).toMatchObject({
      response_format: { type: 'json_object' },
      messages: [{ content: [{ type: 'text' }, { type: 'image_url', image_url: { url: expect.any(String) } }] }],
    })
    expect(sent?.headers.authorization).toBeUndefined()
  })
})

describe('fake LLM: OpenAI-compatible errors', () => {
  it('rejects a wrong key with the SDK AuthenticationError', async () => {
    const failure = client({ apiKey: 'sk-wrong-key' }).models.list()
    await expect(failure).rejects.toBeInstanceOf(AuthenticationError)
    await expect(failure).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' })
  })

  it('surfaces a scripted 429 as RateLimitError when retries are off', async () => {
    fake.script({ status: 429 })
    const failure = client({ maxRetries: 0 }).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    })
    await expect(failure).rejects.toBeInstanceOf(RateLimitError)
  })

  it('lets the SDK retry after Retry-After when the 429 is scripted once', async () => {
    const limited = fake.script({ status: 429, retryAfterMs: 10, times: 1 })
    const reply = await client({ maxRetries: 2 }).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'again' }],
    })
    expect(reply.choices[0]?.message.content).toBe('echo: again')
    expect(limited.served).toBe(1)
    expect(fake.requests).toHaveLength(2)
  })

  it('answers an unknown model with NotFoundError', async () => {
    const failure = client().chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] })
    await expect(failure).rejects.toBeInstanceOf(NotFoundError)
  })

  it('cuts the stream after the scripted number of deltas, and the SDK throws after yielding them', async () => {
    fake.script({ chunks: ['one ', 'two ', 'three ', 'four'], disconnectAfterChunks: 2 })
    const stream = await client({ maxRetries: 0 }).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'count' }],
      stream: true,
    })
    const deltas: string[] = []
    const consume = async () => {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content)
    }
    await expect(consume()).rejects.toThrow()
    expect(deltas).toEqual(['one ', 'two '])
  })
})

describe('fake LLM: OpenAI-compatible embeddings and models', () => {
  it('returns deterministic unit vectors (decoded from base64 by the SDK), honouring dimensions', async () => {
    const openai = client()
    const first = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['a cat', 'a dog'] })
    const again = await openai.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'a cat',
      encoding_format: 'float',
    })
    const sized = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'a cat', dimensions: 32 })

    const [cat, dog] = first.data.map((d) => d.embedding)
    expect(cat).toHaveLength(8)
    expect(cat).not.toEqual(dog)
    expect(again.data[0]?.embedding).toEqual(cat)
    expect(Math.hypot(...(cat ?? []))).toBeCloseTo(1, 5)
    expect(sized.data[0]?.embedding).toHaveLength(32)
  })

  it('lists the configured models', async () => {
    const ids: string[] = []
    for await (const model of client().models.list()) ids.push(model.id)
    expect(ids).toContain('gpt-4o-mini')
    expect(ids).toContain('text-embedding-3-small')
  })
})

const isPng = (bytes: Buffer) => bytes.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))
const decoded = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64')

describe('fake LLM: OpenAI images', () => {
  it('answers a GPT image model with a base64 PNG drawn from the prompt, and records the request', async () => {
    const openai = client()
    const fox = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a fox', n: 1 })
    const again = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a fox' })
    const owl = await openai.images.generate({ model: 'gpt-image-1', prompt: 'an owl' })
    const bytes = decoded(fox.data?.[0]?.b64_json)
    expect(isPng(bytes)).toBe(true)
    expect(fox).toMatchObject({ output_format: 'png', usage: { output_tokens: expect.any(Number) } })
    expect(decoded(again.data?.[0]?.b64_json).equals(bytes)).toBe(true)
    expect(decoded(owl.data?.[0]?.b64_json).equals(bytes)).toBe(false)
    expect(fake.requests[0]).toMatchObject({
      provider: 'openai',
      method: 'POST',
      path: '/v1/images/generations',
      model: 'gpt-image-1',
      body: { prompt: 'a fox', n: 1 },
    })
  })

  it('refuses response_format for a GPT image model, as OpenAI does', async () => {
    const failure = client().images.generate({ model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' })
    await expect(failure).rejects.toBeInstanceOf(BadRequestError)
    await expect(failure).rejects.toMatchObject({ param: 'response_format', code: 'unknown_parameter' })
  })

  it('answers DALL·E with a link to the PNG unless asked for b64_json; the link needs no key', async () => {
    const openai = client()
    const linked = await openai.images.generate({ model: 'dall-e-3', prompt: 'a fox' })
    const inline = await openai.images.generate({ model: 'dall-e-3', prompt: 'a fox', response_format: 'b64_json' })
    const asked = await openai.images.generate({ model: 'dall-e-3', prompt: 'a fox', response_format: 'url' })
    expect(linked.data?.[0]).toMatchObject({ url: expect.stringContaining(fake.url), revised_prompt: 'a fox' })
    expect(linked.data?.[0]?.b64_json).toBeUndefined()
    expect(asked.data?.[0]?.url).toEqual(expect.any(String))

    const res = await fetch(linked.data?.[0]?.url ?? '')
    expect(res.headers.get('content-type')).toBe('image/png')
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(isPng(bytes)).toBe(true)
    expect(bytes.equals(decoded(inline.data?.[0]?.b64_json))).toBe(true)
    expect(fake.requests.at(-1)).toMatchObject({ provider: 'openai', method: 'GET' })
    expect((await fetch(`${fake.url}/openai-files/images/nothing.png`)).status).toBe(404)
  })

  it('answers bad input with OpenAI’s error body naming the parameter', async () => {
    const res = await fetch(`${fake.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1' }),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: {
        message: "Missing required parameter: 'prompt'.",
        type: 'invalid_request_error',
        param: 'prompt',
        code: 'missing_required_parameter',
      },
    })
    await expect(client().images.generate({ model: 'gpt-image-1', prompt: 'x', n: 11 })).rejects.toMatchObject({
      status: 400,
      param: 'n',
    })
  })

  it('checks the key and the model like every other route', async () => {
    const wrongKey = client({ apiKey: 'sk-wrong-key' }).images.generate({ model: 'gpt-image-1', prompt: 'x' })
    await expect(wrongKey).rejects.toBeInstanceOf(AuthenticationError)
    const unknown = client().images.generate({ model: 'gpt-painter', prompt: 'x' })
    await expect(unknown).rejects.toBeInstanceOf(NotFoundError)
  })

  it('serves image rules by prompt, for their times, with their status', async () => {
    fake.script({ provider: 'openai', endpoint: 'image', promptIncludes: 'forbidden', status: 400 })
    const limited = fake.script({ provider: 'openai', endpoint: 'image', status: 429, retryAfterMs: 10, times: 1 })
    const openai = client({ maxRetries: 0 })
    await expect(openai.images.generate({ model: 'gpt-image-1', prompt: 'a forbidden thing' })).rejects.toMatchObject({
      status: 400,
    })
    await expect(openai.images.generate({ model: 'gpt-image-1', prompt: 'a cat' })).rejects.toBeInstanceOf(
      RateLimitError,
    )
    const drawn = await openai.images.generate({ model: 'gpt-image-1', prompt: 'a cat' })
    expect(isPng(decoded(drawn.data?.[0]?.b64_json))).toBe(true)
    expect(limited.served).toBe(1)
  })
})

describe('fake LLM: what it keeps', () => {
  it('records each request for the test to read, and none when told not to keep them', async () => {
    const ask = (llm: FakeLlm) =>
      new OpenAI({ apiKey: 'sk-test', baseURL: `${llm.url}/v1` }).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      })
    const reply = await ask(fake)
    expect(fake.requests.map((r) => (r.body as { messages: unknown[] }).messages)).toEqual([
      [{ role: 'user', content: 'hi' }],
    ])
    const forgetful = await startFakeLlm({ keepRequests: false })
    try {
      // It answers all the same.
      expect((await ask(forgetful)).choices[0]?.message.content).toBe(reply.choices[0]?.message.content)
      expect(forgetful.requests).toEqual([])
    } finally {
      await forgetful.close()
    }
  })
})
