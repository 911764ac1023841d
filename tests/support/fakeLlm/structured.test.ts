import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from './index'

// The fake refuses structured-output requests the real services refuse, in their words.

let fake: FakeLlm
beforeEach(async () => {
  fake = await startFakeLlm()
})
afterEach(() => fake.close())

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as { error: unknown } }
}
const messages = [{ role: 'user', content: 'hi' }]
const openai = (response_format: unknown) =>
  post('/v1/chat/completions', { model: 'gpt-4o-mini', messages, response_format }, { authorization: 'Bearer sk-test' })

describe('fake LLM: structured output', () => {
  it('OpenAI: takes a strict json_schema, refuses one strict mode cannot take, and a bad name', async () => {
    fake.script({ provider: 'openai', reply: '{"a":"x"}' })
    const good = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }
    expect(
      (await openai({ type: 'json_schema', json_schema: { name: 'ok', schema: good, strict: true } })).status,
    ).toBe(200)
    const partial = { ...good, required: [] }
    const refused = await openai({ type: 'json_schema', json_schema: { name: 'ok', schema: partial, strict: true } })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatchObject({
      message: expect.stringContaining("'required' is required to be supplied") as string,
      param: 'response_format',
    })
    const named = await openai({ type: 'json_schema', json_schema: { name: 'two words', schema: good } })
    expect(named).toMatchObject({ status: 400, body: { error: { param: 'response_format.json_schema.name' } } })
  })

  it('Gemini: wants the JSON mime type beside responseSchema, and only its Schema’s fields', async () => {
    const ask = (generationConfig: unknown) =>
      post(
        '/v1beta/models/gemini-2.5-flash:generateContent',
        {
          contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
          generationConfig,
        },
        { 'x-goog-api-key': 'gemini-test' },
      )
    const schema = { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } }, required: ['a'] }
    expect((await ask({ responseMimeType: 'application/json', responseSchema: schema })).status).toBe(200)
    expect(await ask({ responseSchema: schema })).toMatchObject({ status: 400 })
    const json = await ask({
      responseMimeType: 'application/json',
      responseSchema: { ...schema, additionalProperties: false },
    })
    expect(json.status).toBe(400)
    expect(JSON.stringify(json.body)).toContain('Unknown name \\"additionalProperties\\"')
  })

  it('Ollama: takes "json" or a schema in `format`, nothing else', async () => {
    const chat = (format: unknown) => post('/api/chat', { model: 'llama3.2', messages, stream: false, format })
    expect((await chat({ type: 'object', properties: {} })).status).toBe(200)
    expect((await chat('json')).status).toBe(200)
    expect(await chat('yaml')).toEqual({
      status: 400,
      body: { error: 'invalid format: expected "json" or a valid JSON schema' },
    })
  })
})
