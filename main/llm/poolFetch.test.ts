import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { openaiConnector } from './openaiConnector'
import { LlmRegistry } from './providers'

/** An HTTP server answering as `onRequest` says, with the sockets it was connected on. */
async function sseServer(onRequest: (req: IncomingMessage, res: ServerResponse) => void) {
  const sockets = new Set<Socket>()
  const server = createServer(onRequest)
  server.on('connection', (s) => sockets.add(s))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    sockets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const chunk = (text: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`
const connectorAt = (baseURL: string) => openaiConnector({ provider: 'openai', apiKey: 'sk-test', baseURL })

let close: (() => Promise<void>) | null = null
afterEach(async () => {
  await close?.()
  close = null
})

describe('the OpenAI-compatible connector’s connections (poolFetch)', () => {
  it('hangs up on the model when a reply is stopped, so it stops generating', async () => {
    let hungUp!: () => void
    const hangUp = new Promise<void>((resolve) => (hungUp = resolve))
    const server = await sseServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(chunk('first'))
      // Never finished: only the client's stop ends this answer.
      res.once('close', hungUp)
    })
    close = server.close
    const stop = new AbortController()
    const seen: string[] = []
    const run = async () => {
      for await (const event of connectorAt(server.url).chat({
        model: 'local',
        messages: [{ role: 'user', content: 'go' }],
        signal: stop.signal,
      }))
        if (event.type === 'delta') {
          seen.push(event.text)
          stop.abort()
        }
    }
    await expect(run()).rejects.toMatchObject({ failure: 'aborted' })
    await hangUp
    expect(seen).toEqual(['first'])
  })

  it('answers turn after turn over one kept-alive connection', async () => {
    const server = await sseServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const answer = `${chunk('hi')}data: [DONE]\n\n`
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': Buffer.byteLength(answer) })
        res.end(answer)
      })
    })
    close = server.close
    const connector = connectorAt(server.url)
    const texts: string[] = []
    const turns = 30
    for (let turn = 0; turn < turns; turn++) {
      for await (const event of connector.chat({
        model: 'local',
        messages: [{ role: 'user', content: `turn ${turn}` }],
      }))
        if (event.type === 'delta') texts.push(event.text)
      // The connection goes back to the pool once the end of its answer is read, in the event
      // loop's next turn; a user's turns are never closer than that.
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(texts).toEqual(Array(turns).fill('hi'))
    expect(server.sockets.size).toBe(1)
  })

  it('follows a redirect as fetch did: a server that moved its API still answers', async () => {
    const server = await sseServer((req, res) => {
      req.resume()
      req.on('end', () => {
        if (req.url?.startsWith('/v1/')) {
          res.writeHead(307, { location: req.url.replace('/v1/', '/moved/v1/') })
          res.end()
          return
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end(`${chunk('from the new place')}data: [DONE]\n\n`)
      })
    })
    close = server.close
    const texts: string[] = []
    for await (const event of connectorAt(server.url).chat({
      model: 'local',
      messages: [{ role: 'user', content: 'hi' }],
    }))
      if (event.type === 'delta') texts.push(event.text)
    expect(texts).toEqual(['from the new place'])
  })

  it('is readied at start-up without a request to any provider, and the first reply then goes out as usual', async () => {
    const asked: string[] = []
    const server = await sseServer((req, res) => {
      asked.push(`${req.method} ${req.url}`)
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end(`${chunk('hello')}data: [DONE]\n\n`)
      })
    })
    close = server.close
    const llm = new LlmRegistry(new Map([['openai', { id: 'openai', baseURL: server.url, apiKey: 'sk-test' }]]))
    await llm.warmUp()
    expect(asked).toEqual([])
    const texts: string[] = []
    for await (const event of llm
      .connector('openai')
      .chat({ model: 'local', messages: [{ role: 'user', content: 'hi' }] }))
      if (event.type === 'delta') texts.push(event.text)
    expect(texts).toEqual(['hello'])
    expect(asked).toEqual(['POST /v1/chat/completions'])
  })

  it('reads a status and headers the server repeats, as an error the user can act on', async () => {
    const server = await sseServer((req, res) => {
      req.resume()
      res.writeHead(429, [
        ['content-type', 'application/json'],
        ['retry-after', '7'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ])
      res.end(JSON.stringify({ error: { message: 'slow down' } }))
    })
    close = server.close
    const run = async () => {
      for await (const event of connectorAt(server.url).chat({
        model: 'local',
        messages: [{ role: 'user', content: 'go' }],
      }))
        void event
    }
    await expect(run()).rejects.toMatchObject({ failure: 'rate_limited', retryAfterMs: 7000 })
  })
})
