import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { detectOllama, ollamaConnector } from './ollamaConnector'
import { connectorContract, moodSchema } from '../../tests/support/llm/connectorContract'
import {
  ask,
  askWithImage,
  collect,
  deltas,
  png,
  useConnectorHarness,
  weatherTrip,
  withOptions,
} from '../../tests/support/llm/connectorHarness'
import type { ChatEvent } from './types'

const h = useConnectorHarness({
  provider: 'ollama',
  model: 'llama3.2',
  make: (url, options) => ollamaConnector({ baseURL: url, ...options }),
})
const { model } = h

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

describe('ollamaConnector: what every connector does', () => {
  connectorContract(h, { embedModel: 'nomic-embed-text', models: ['llama3.2:latest', 'nomic-embed-text:latest'] })
})

describe('ollamaConnector chat', () => {
  it('posts to /api/chat with the options under Ollama’s names', async () => {
    expect(await h.sent(withOptions)).toEqual({
      model,
      stream: true,
      messages: [
        { role: 'system', content: 'be kind' },
        { role: 'user', content: 'hi' },
      ],
      options: { temperature: 0.3, num_predict: 64 },
      format: 'json',
    })
    expect(h.fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/chat' })
  })

  it('asks for a window that holds the prompt’s budget and the reply, so nothing is cut silently', async () => {
    const body = await h.sent({ messages: [{ role: 'user', content: 'hi' }], contextTokens: 16_000, maxTokens: 1000 })
    expect(body.options).toMatchObject({ num_ctx: 17_408 }) // 17,000 rounded up to whole KB
    const plain = await h.sent({ messages: [{ role: 'user', content: 'hi' }] })
    expect((plain.options as Record<string, unknown>).num_ctx).toBeUndefined()
  })

  it('sends images beside the text as bare base64', async () => {
    expect((await h.sent({ messages: askWithImage('what is this?') })).messages).toEqual([
      { role: 'user', content: 'what is this?', images: [png] },
    ])
  })

  it('round-trips a tool call: tool_call event, then the result sent as a tool message', async () => {
    const { withTools, withResult } = await h.roundTripToolCall()
    expect(withTools.tools).toEqual([{ type: 'function', function: weatherTrip.tool }])
    expect(withResult.messages).toEqual([
      { role: 'user', content: 'weather in Kyoto?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Kyoto' } } }],
      },
      { role: 'tool', content: '{"celsius":21}', tool_name: 'get_weather' },
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

  it('names the host it could not reach', async () => {
    await h.fake.close()
    const { error } = await h.failing()
    expect(error).toMatchObject({
      failure: 'unavailable',
      message: `could not reach Ollama at ${new URL(h.fake.url).host}`,
    })
  })
})

describe('ollamaConnector structured output', () => {
  it('sends the JSON Schema itself as `format`', async () => {
    expect((await h.sent({ jsonSchema: moodSchema })).format).toEqual(moodSchema.schema)
    expect((await h.sent({ json: true })).format).toBe('json')
  })
})

describe('ollamaConnector embed', () => {
  it('sends every input to /api/embed in one request', async () => {
    await h.connector().embed({ model: 'nomic-embed-text', input: ['a cat', 'a dog', 'a fox'] })
    expect(h.fake.requests.map((r) => r.path)).toEqual(['/api/embed'])
    expect(h.lastBody()).toEqual({ model: 'nomic-embed-text', input: ['a cat', 'a dog', 'a fox'] })
  })
})

describe('ollamaConnector generateImage', () => {
  it('refuses plainly, naming the providers that can, without a request', async () => {
    const drawn = h.connector().generateImage({ model, prompt: 'a lighthouse' })
    await expect(drawn).rejects.toMatchObject({
      failure: 'bad_request',
      retryable: false,
      message: 'Ollama cannot generate images; choose an OpenAI or Gemini image model',
    })
    expect(h.fake.requests).toEqual([])
  })
})

describe('detectOllama', () => {
  it('returns the models of an Ollama that answers', async () => {
    const models = await detectOllama(h.fake.url)
    expect(models?.map((m) => m.ref)).toContain('ollama:llama3.2:latest')
  })

  it('returns null quickly when nothing listens', async () => {
    const url = await closedPortUrl()
    // A refused connection answers at once: with a timeout longer than the test's own, waiting for it would fail the test.
    expect(await detectOllama(url, 10 * 60_000)).toBeNull()
  })

  it('returns null after the timeout when the server never answers', async () => {
    const { url, server } = await rawServer(() => {})
    try {
      expect(await detectOllama(url, 150)).toBeNull()
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
