// What every connector must do the same way, whatever its provider: the cases are registered
// with `it` inside the caller's describe, against the fake server of `useConnectorHarness`.

import { getEventListeners } from 'node:events'
import { expect, it } from 'vitest'
import { z } from 'zod'
import { structuredSchema } from '../../../main/llm/jsonSchema'
import { serverName } from '../../../main/llm/llmError'
import type { ChatEvent } from '../../../main/llm/types'
import { ask, collect, deltas, type ConnectorHarness } from './connectorHarness'

/** A small schema with what memory jobs use: an enum, an array, an optional field. */
export const moodSchema = structuredSchema(
  'mood_check',
  z.object({
    mood: z.enum(['calm', 'tense']),
    tags: z.array(z.string().max(20)).max(3),
    note: z.string().optional(),
  }),
)

export interface ContractOptions {
  /** An embedding model the fake knows. */
  embedModel: string
  /** Every model id the fake lists for this provider, in any order. */
  models: string[]
  /** For providers that take a key: one the fake refuses. The auth cases run only with it. */
  wrongKey?: string
}

export function connectorContract(h: ConnectorHarness, { embedModel, models, wrongKey }: ContractOptions): void {
  const { provider, model } = h
  // How messages name the server: an OpenAI-compatible one by its address (the fake's, per test).
  const name = () => serverName(provider, `${h.fake.url}/v1`)

  it('streams text deltas in order, then done with usage and finish reason', async () => {
    h.fake.script({ provider, chunks: ['Hel', 'lo ', 'there'] })
    const events = await collect(h.connector().chat({ model, messages: ask('hi') }))
    expect(events.map((e) => e.type)).toEqual(['delta', 'delta', 'delta', 'done'])
    expect(deltas(events)).toEqual(['Hel', 'lo ', 'there'])
    const done = events.at(-1)
    expect(done).toEqual({
      type: 'done',
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
      finish_reason: 'stop',
    })
    if (done?.type !== 'done') throw new Error('no done event')
    expect(done.usage?.prompt_tokens).toBeGreaterThan(0)
    expect(done.usage?.completion_tokens).toBeGreaterThan(0)
  })

  // An SDK may end an aborted stream quietly (openai's does): the connector must still say "aborted".
  it('stops with an aborted LlmError when the signal fires mid-stream', async () => {
    h.fake.script({ provider, chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 300 })
    const controller = new AbortController()
    const seen: ChatEvent[] = []
    const run = async () => {
      for await (const event of h.connector().chat({ model, messages: ask('go'), signal: controller.signal })) {
        seen.push(event)
        controller.abort()
      }
    }
    await expect(run()).rejects.toMatchObject({ failure: 'aborted' })
    expect(deltas(seen)).toEqual(['a'])
  })

  // The job worker hands every job the same long-lived signal: a listener left per call leaks
  // and warns (MaxListenersExceededWarning) after ten jobs.
  it('leaves no listener behind on the caller’s signal, call after call', async () => {
    const controller = new AbortController()
    for (let i = 0; i < 12; i++) {
      h.fake.script({ provider, chunks: ['ok'], times: 1 })
      await collect(h.connector().chat({ model, messages: ask(`call ${i}`), signal: controller.signal }))
      await h.connector().embed({ model: embedModel, input: [`call ${i}`], signal: controller.signal })
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })

  it('stops with an aborted LlmError when the signal fires before the reply starts', async () => {
    h.fake.script({ provider, delayMs: 1000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const { error } = await h.failing({ signal: controller.signal })
    expect(error).toMatchObject({ failure: 'aborted', retryable: false })
  })

  it('maps an unknown model (404) to not_found', async () => {
    const { error } = await h.failing({ model: 'no-such-model' })
    expect(error).toMatchObject({ failure: 'not_found', message: `model not found on ${name()}: no-such-model` })
  })

  it('maps 429 to a retryable rate_limited with the provider’s delay, without retrying inside', async () => {
    h.fake.script({ provider, status: 429, retryAfterMs: 3000 })
    const { error } = await h.failing()
    expect(error).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterMs: 3000 })
    expect(h.fake.requests).toHaveLength(1)
  })

  it('maps a 503 to a retryable unavailable', async () => {
    h.fake.script({ provider, status: 503 })
    const { error } = await h.failing()
    expect(error).toMatchObject({ failure: 'unavailable', retryable: true })
    expect(h.fake.requests).toHaveLength(1)
  })

  it('fails with an LlmError after the deltas when the connection drops mid-stream', async () => {
    h.fake.script({ provider, chunks: ['one ', 'two ', 'three'], disconnectAfterChunks: 2 })
    const { error, seen } = await h.failing()
    expect(deltas(seen)).toEqual(['one ', 'two '])
    expect(error).toMatchObject({ failure: 'unavailable' })
    // No silent second attempt inside the connector: retrying is chatWithRetry's call.
    expect(h.fake.requests).toHaveLength(1)
  })

  it('times out when the stream goes silent for longer than idleTimeoutMs', async () => {
    h.fake.script({ provider, chunks: ['a', 'b'], chunkDelayMs: 1000 })
    const { error, seen } = await h.failing({}, { idleTimeoutMs: 150 })
    expect(deltas(seen)).toEqual(['a'])
    expect(error).toMatchObject({ failure: 'timeout', retryable: true })
  })

  it('times out when the response does not start within connectTimeoutMs', async () => {
    h.fake.script({ provider, delayMs: 1000 })
    const { error } = await h.failing({}, { connectTimeoutMs: 150 })
    expect(error).toMatchObject({ failure: 'timeout' })
  })

  it('reports an unreachable server as unavailable', async () => {
    await h.fake.close()
    const { error } = await h.failing()
    expect(error).toMatchObject({
      failure: 'unavailable',
      message: expect.stringContaining(`could not reach ${name()}`),
    })
  })

  it('embeds each input to a vector of the model’s length', async () => {
    const vectors = await h.connector().embed({ model: embedModel, input: ['a cat', 'a dog', 'a fox'] })
    expect(vectors).toHaveLength(3)
    expect(vectors.every((v) => v.length === 8)).toBe(true)
    expect(vectors[0]).not.toEqual(vectors[1])
  })

  it('maps embed errors like chat errors', async () => {
    await expect(h.connector().embed({ model: 'no-such-model', input: ['a'] })).rejects.toMatchObject({
      failure: 'not_found',
    })
  })

  it('asks for a JSON object of a schema in the provider’s structured-output form, which it accepts', async () => {
    const answer = '{"mood":"calm","tags":["tea"],"note":null}'
    h.fake.script({ provider, reply: answer })
    const events = await collect(h.connector().chat({ model, messages: ask('how are you?'), jsonSchema: moodSchema }))
    expect(deltas(events).join('')).toBe(answer)
    expect(events.at(-1)).toMatchObject({ type: 'done', finish_reason: expect.stringMatching(/stop/i) })
  })

  it('lists models as provider refs, sorted by id', async () => {
    const expected = [...models].sort((a, b) => a.localeCompare(b)).map((id) => ({ id, ref: `${provider}:${id}` }))
    expect(await h.connector().listModels()).toEqual(expected)
  })

  if (!wrongKey) return

  it('maps a wrong key to auth, without repeating the key', async () => {
    const { error } = await h.failing({}, { apiKey: wrongKey })
    expect(error).toMatchObject({ failure: 'auth', message: `invalid API key for ${name()}`, retryable: false })
    // Not even the start of it.
    expect(error.message).not.toContain(wrongKey.slice(0, 8))
  })

  it('maps a wrong key to auth when embedding and listing models too', async () => {
    const refused = h.connector({ apiKey: wrongKey })
    await expect(refused.embed({ model: embedModel, input: ['a'] })).rejects.toMatchObject({ failure: 'auth' })
    await expect(refused.listModels()).rejects.toMatchObject({ failure: 'auth' })
  })
}
