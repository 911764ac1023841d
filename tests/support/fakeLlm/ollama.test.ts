import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from './index'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

const post = (path: string, body: unknown) =>
  fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

/** Reads an NDJSON body line by line, as a connector would. */
async function ndjsonLines(res: Response): Promise<Array<Record<string, unknown>>> {
  const lines: Array<Record<string, unknown>> = []
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true })
    let newline: number
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim()
      buffer = buffer.slice(newline + 1)
      if (line) lines.push(JSON.parse(line) as Record<string, unknown>)
    }
  }
  return lines
}

describe('fake LLM: Ollama', () => {
  it('streams /api/chat as NDJSON and ends with a done line carrying the counts', async () => {
    fake.script({ provider: 'ollama', model: 'llama3.2', chunks: ['Why ', 'hello'] })
    const res = await post('/api/chat', { model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] })
    expect(res.headers.get('content-type')).toBe('application/x-ndjson')
    const lines = await ndjsonLines(res)
    const text = lines.map((line) => (line.message as { content: string }).content).join('')
    expect(text).toBe('Why hello')
    expect(lines.slice(0, -1).every((line) => line.done === false)).toBe(true)
    expect(lines.at(-1)).toMatchObject({
      done: true,
      done_reason: 'stop',
      eval_count: expect.any(Number),
      prompt_eval_count: expect.any(Number),
      eval_duration: expect.any(Number),
      total_duration: expect.any(Number),
    })
  })

  it('answers `stream: false` with one JSON object, echoing by default', async () => {
    const res = await post('/api/chat', {
      model: 'llama3.2:latest',
      stream: false,
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'ping', images: ['iVBORw0KGgo='] },
      ],
    })
    expect(await res.json()).toMatchObject({ message: { role: 'assistant', content: 'echo: ping' }, done: true })
  })

  it('returns scripted tool calls with object arguments', async () => {
    fake.script({ reply: { toolCalls: [{ name: 'search', arguments: '{"q":"moss"}' }] } })
    const res = await post('/api/chat', {
      model: 'llama3.2',
      stream: false,
      messages: [{ role: 'user', content: 'find moss' }],
      tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object' } } }],
    })
    const reply = (await res.json()) as { message: { tool_calls: Array<{ function: unknown }> } }
    expect(reply.message.tool_calls.map((call) => call.function)).toEqual([
      { index: 0, name: 'search', arguments: { q: 'moss' } },
    ])
  })

  it('lists tags, embeds, and 404s an unknown model in Ollama’s shape', async () => {
    const tags = (await (await fetch(`${fake.url}/api/tags`)).json()) as { models: Array<{ name: string }> }
    expect(tags.models.map((m) => m.name)).toContain('llama3.2:latest')

    const embedded = (await (await post('/api/embed', { model: 'nomic-embed-text', input: ['a', 'b'] })).json()) as {
      embeddings: number[][]
    }
    expect(embedded.embeddings).toHaveLength(2)
    expect(embedded.embeddings[0]).toHaveLength(8)

    const missing = await post('/api/chat', { model: 'mystery', messages: [] })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: expect.stringContaining('mystery') })
  })

  it('cuts a stream mid-way and answers scripted failures with {error}', async () => {
    fake.script({ provider: 'ollama', chunks: ['a', 'b', 'c'], disconnectAfterChunks: 1, times: 1 })
    fake.script({ provider: 'ollama', status: 500, times: 1 })
    const cutShort = await post('/api/chat', { model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] })
    await expect(ndjsonLines(cutShort)).rejects.toThrow()

    const failed = await post('/api/chat', { model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] })
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ error: expect.any(String) })
  })
})
