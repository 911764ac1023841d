import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from './index'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm({ models: { openai: ['local-model'] } })
})
afterEach(() => fake.close())

const openai = () => new OpenAI({ apiKey: 'sk-test', baseURL: `${fake.url}/v1`, maxRetries: 0 })
const ask = async (model: string, content = 'q') =>
  (await openai().chat.completions.create({ model, messages: [{ role: 'user', content }] })).choices[0]?.message.content

describe('fake LLM scripting', () => {
  it('serves rules in order, each for its `times`, then falls back to the echo', async () => {
    fake.script({ reply: 'first', times: 1 })
    fake.script({ model: 'other-model', reply: 'for other' })
    const second = fake.script({ reply: 'second', times: 2 })

    expect(await ask('local-model')).toBe('first')
    expect(await ask('other-model')).toBe('for other')
    expect(await ask('local-model')).toBe('second')
    expect(await ask('local-model')).toBe('second')
    expect(await ask('local-model', 'last')).toBe('echo: last')
    expect(second.served).toBe(2)
  })

  it('keeps chat rules away from embeddings and other providers', async () => {
    fake.script({ provider: 'ollama', reply: 'ollama only' })
    fake.script({ status: 500 })
    const vectors = await openai().embeddings.create({ model: 'local-model', input: 'x' })
    expect(vectors.data).toHaveLength(1)
    await expect(ask('local-model')).rejects.toMatchObject({ status: 500 })
  })

  it('keeps image rules to image requests, and chat rules away from them', async () => {
    fake.script({ endpoint: 'image', model: 'local-painter', status: 500 })
    fake.script({ reply: 'chat only' })
    expect(await ask('local-model')).toBe('chat only')
    const drawn = openai().images.generate({ model: 'local-painter', prompt: 'x' })
    await expect(drawn).rejects.toMatchObject({ status: 500 })
  })

  it('waits `delayMs` before answering, while other requests are answered meanwhile', async () => {
    fake.script({ reply: 'late', delayMs: 60_000, promptIncludes: 'slow' })
    let lateSettled = false
    const late = ask('local-model', 'slow').finally(() => (lateSettled = true))
    // Order, not a clock: the undelayed request comes back while the delayed one still waits.
    expect(await ask('local-model', 'prompt')).toBe('echo: prompt')
    expect(lateSettled).toBe(false)
    await fake.close()
    await expect(late).rejects.toThrow()
  })

  it('forgets rules and requests on reset', async () => {
    fake.script({ reply: 'scripted' })
    await ask('local-model')
    fake.reset()
    expect(fake.requests).toEqual([])
    expect(await ask('local-model', 'plain')).toBe('echo: plain')
    expect(fake.requests).toHaveLength(1)
  })

  it('rejects rules that contradict themselves', () => {
    expect(() => fake.script({ reply: 'abc', chunks: ['a', 'b'] })).toThrow(/chunks/)
    expect(() => fake.script({ times: 0 })).toThrow(/times/)
    expect(() => fake.script({ delayMs: -1 })).toThrow(/delayMs/)
  })

  it('ends a slow open stream on close, and the client sees the break', async () => {
    fake.script({ chunks: ['a', 'b', 'c'], chunkDelayMs: 10_000 })
    const stream = await openai().chat.completions.create({
      model: 'local-model',
      messages: [{ role: 'user', content: 'slow' }],
      stream: true,
    })
    const seen: string[] = []
    const consume = (async () => {
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta.content
        if (text) seen.push(text)
        if (text === 'a') void fake.close()
      }
    })()
    await expect(consume).rejects.toThrow()
    // Had close not broken the stream, 'b' would have come after its 10 s delay.
    expect(seen).toEqual(['a'])
    await fake.close()
  })

  it('survives a client that gives up while the server is still waiting', async () => {
    fake.script({ reply: 'never seen', delayMs: 10_000, times: 1 })
    const controller = new AbortController()
    const pending = openai().chat.completions.create(
      { model: 'local-model', messages: [{ role: 'user', content: 'x' }] },
      { signal: controller.signal },
    )
    setTimeout(() => controller.abort(), 50)
    await expect(pending).rejects.toThrow()
    expect(await ask('local-model', 'next')).toBe('echo: next')
  })
})
