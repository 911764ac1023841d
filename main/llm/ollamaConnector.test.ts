import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../testing/fakeLlm'
import { LlmError } from './llmError'
import { detectOllama, ollamaConnector, type OllamaConfig } from './ollamaConnector'
import type { ChatEvent, ChatMessage, ChatRequest, ToolSpec } from './types'

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

const model = 'llama3.2'
const connector = (options: Partial<OllamaConfig> = {}) => ollamaConnector({ baseURL: fake.url, ...options })
const ask = (text: string): ChatMessage[] => [{ role: 'user', content: text }]
const png = 'iVBORw0KGgo='
const search: ToolSpec = {
  name: 'search',
  description: 'Search the notes',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
}

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

/** Runs a chat that must fail; returns the error and the events seen before it. */
async function failing(request: Partial<ChatRequest>, options: Partial<OllamaConfig> = {}) {
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

/** A bare HTTP server for what the fake cannot do: odd chunking, error lines, never answering. */
async function rawServer(handle: (res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume()
    handle(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}
const stopServer = (server: Server) => {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(resolve))
}

async function closedPortUrl(): Promise<string> {
  const { url, server } = await rawServer(() => {})
  await stopServer(server)
  return url
}

describe('ollamaConnector chat', () => {
  it('streams text deltas in order, then done with usage from the eval counts', async () => {
    fake.script({ provider: 'ollama', chunks: ['Why ', 'hello', ' there'] })
    const events = await collect(
      connector().chat({
        model,
        messages: [{ role: 'system', content: 'terse' }, ...ask('hi')],
        temperature: 0.2,
        maxTokens: 50,
        json: true,
      }),
    )
    expect(deltas(events)).toEqual(['Why ', 'hello', ' there'])
    const done = events.at(-1)
    expect(done).toMatchObject({ type: 'done', finish_reason: 'stop' })
    if (done?.type !== 'done') throw new Error('no done event')
    expect(done.usage?.prompt_tokens).toBeGreaterThan(0)
    expect(done.usage?.completion_tokens).toBeGreaterThan(0)
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/chat' })
    expect(lastBody()).toEqual({
      model,
      stream: true,
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'hi' },
      ],
      options: { temperature: 0.2, num_predict: 50 },
      format: 'json',
    })
  })

  it('sends images beside the text as bare base64', async () => {
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
    expect(lastBody().messages).toEqual([{ role: 'user', content: 'what is this?', images: [png] }])
  })

  it('round-trips a tool call: tool_call event, then the result sent as a tool message', async () => {
    fake.script({ provider: 'ollama', reply: { toolCalls: [{ name: 'search', arguments: { q: 'moss' } }] }, times: 1 })
    fake.script({ provider: 'ollama', reply: 'Moss likes shade.' })
    const ollama = connector()
    const first = await collect(ollama.chat({ model, messages: ask('find moss'), tools: [search] }))
    const call = first.find((e) => e.type === 'tool_call')?.call
    expect(call).toMatchObject({ name: 'search', id: expect.any(String) })
    expect(JSON.parse(call?.arguments ?? '')).toEqual({ q: 'moss' })
    expect(first.at(-1)).toMatchObject({ type: 'done', finish_reason: 'tool_calls' })
    expect(lastBody().tools).toEqual([{ type: 'function', function: search }])

    if (!call) throw new Error('no tool call')
    const second = await collect(
      ollama.chat({
        model,
        tools: [search],
        messages: [
          ...ask('find moss'),
          { role: 'assistant', content: '', tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, name: 'search', content: '["moss grows in shade"]' },
        ],
      }),
    )
    expect(deltas(second).join('')).toBe('Moss likes shade.')
    expect(lastBody().messages).toEqual([
      { role: 'user', content: 'find moss' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'search', arguments: { q: 'moss' } } }] },
      { role: 'tool', content: '["moss grows in shade"]', tool_name: 'search' },
    ])
  })

  it('reassembles NDJSON lines split across network chunks', async () => {
    const lines = [
      JSON.stringify({ message: { role: 'assistant', content: 'Hel' }, done: false }),
      JSON.stringify({ message: { role: 'assistant', content: 'lo' }, done: false }),
      JSON.stringify({
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 3,
        eval_count: 2,
      }),
    ].join('\n')
    const cuts = [5, 40, 41, 90]
    const { url, server } = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      let at = 0
      const next = () => {
        const end = cuts.shift() ?? lines.length + 1
        res.write(lines.slice(at, end) + (end > lines.length ? '\n' : ''))
        at = end
        if (at > lines.length) res.end()
        else setTimeout(next, 10)
      }
      next()
    })
    try {
      const events = await collect(ollamaConnector({ baseURL: url }).chat({ model, messages: ask('hi') }))
      expect(deltas(events)).toEqual(['Hel', 'lo'])
      expect(events.at(-1)).toEqual({
        type: 'done',
        usage: { prompt_tokens: 3, completion_tokens: 2 },
        finish_reason: 'stop',
      })
    } finally {
      await stopServer(server)
    }
  })

  it('turns an error line inside a started stream into an LlmError', async () => {
    const { url, server } = await rawServer((res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      res.write(`${JSON.stringify({ message: { content: 'Hi' }, done: false })}\n`)
      res.end(`${JSON.stringify({ error: 'llama runner process has terminated' })}\n`)
    })
    try {
      const seen: ChatEvent[] = []
      const run = async () => {
        for await (const e of ollamaConnector({ baseURL: url }).chat({ model, messages: ask('hi') })) seen.push(e)
      }
      await expect(run()).rejects.toMatchObject({ failure: 'unavailable', message: expect.stringContaining('runner') })
      expect(deltas(seen)).toEqual(['Hi'])
    } finally {
      await stopServer(server)
    }
  })

  it('stops with an aborted LlmError when the signal fires mid-stream', async () => {
    fake.script({ provider: 'ollama', chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 300 })
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
    fake.script({ provider: 'ollama', delayMs: 1000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const { error } = await failing({ signal: controller.signal })
    expect(error).toMatchObject({ failure: 'aborted', retryable: false })
  })

  it('maps an unknown model (404) to not_found', async () => {
    const { error } = await failing({ model: 'mystery' })
    expect(error).toMatchObject({ failure: 'not_found', message: 'model not found on Ollama: mystery' })
  })

  it('maps 429 to a retryable rate_limited', async () => {
    fake.script({ provider: 'ollama', status: 429, retryAfterMs: 2000 })
    const { error } = await failing({})
    expect(error).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterMs: 2000 })
  })

  it('fails with an LlmError after the deltas when the connection drops mid-stream', async () => {
    fake.script({ provider: 'ollama', chunks: ['a', 'b', 'c'], disconnectAfterChunks: 2 })
    const { error, seen } = await failing({})
    expect(deltas(seen)).toEqual(['a', 'b'])
    expect(error).toMatchObject({ failure: 'unavailable' })
    expect(fake.requests).toHaveLength(1)
  })

  it('times out when the stream goes silent for longer than idleTimeoutMs', async () => {
    fake.script({ provider: 'ollama', chunks: ['a', 'b'], chunkDelayMs: 1000 })
    const { error, seen } = await failing({}, { idleTimeoutMs: 150 })
    expect(deltas(seen)).toEqual(['a'])
    expect(error).toMatchObject({ failure: 'timeout', retryable: true })
  })

  it('reports a refused connection as unavailable, naming the host', async () => {
    const url = await closedPortUrl()
    const { error } = await failing({}, { baseURL: url })
    expect(error).toMatchObject({ failure: 'unavailable', message: `could not reach Ollama at ${new URL(url).host}` })
  })
})

describe('ollamaConnector embed and listModels', () => {
  it('embeds each input to a vector of the model’s length', async () => {
    const vectors = await connector().embed({ model: 'nomic-embed-text', input: ['a cat', 'a dog', 'a fox'] })
    expect(vectors).toHaveLength(3)
    expect(vectors.every((v) => v.length === 8)).toBe(true)
    expect(lastBody()).toEqual({ model: 'nomic-embed-text', input: ['a cat', 'a dog', 'a fox'] })
    await expect(connector().embed({ model: 'mystery', input: ['a'] })).rejects.toMatchObject({ failure: 'not_found' })
  })

  it('lists the pulled models as ollama: refs', async () => {
    expect(await connector().listModels()).toEqual([
      { id: 'llama3.2:latest', ref: 'ollama:llama3.2:latest' },
      { id: 'nomic-embed-text:latest', ref: 'ollama:nomic-embed-text:latest' },
    ])
  })
})

describe('detectOllama', () => {
  it('returns the models of an Ollama that answers', async () => {
    const models = await detectOllama(fake.url)
    expect(models?.map((m) => m.ref)).toContain('ollama:llama3.2:latest')
  })

  it('returns null quickly when nothing listens', async () => {
    const url = await closedPortUrl()
    const started = performance.now()
    expect(await detectOllama(url)).toBeNull()
    expect(performance.now() - started).toBeLessThan(800)
  })

  it('returns null after the timeout when the server never answers', async () => {
    const { url, server } = await rawServer(() => {})
    try {
      const started = performance.now()
      expect(await detectOllama(url, 150)).toBeNull()
      expect(performance.now() - started).toBeLessThan(1000)
    } finally {
      await stopServer(server)
    }
  })

  it('returns null when something else answers on the port', async () => {
    const { url, server } = await rawServer((res) => res.end('<html>not ollama</html>'))
    try {
      expect(await detectOllama(url)).toBeNull()
    } finally {
      await stopServer(server)
    }
  })
})
