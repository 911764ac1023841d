import { describe, expect, it } from 'vitest'
import type { Flow, ProviderInfo } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()
/** No provider in the environment: only what the settings say. */
const noEnvProvider = { env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' } }
const openaiIn = (providers: ProviderInfo[]) => providers.find((p) => p.id === 'openai')

describe('providers set up in the settings', () => {
  it('take a base URL and a write-only key; the UI only ever sees set/not set and the last four', async () => {
    const h = await start(noEnvProvider)
    const before = await h.call<ProviderInfo[]>('list_providers', {})
    expect(openaiIn(before)).toMatchObject({
      configured: false,
      source: null,
      key: { set: false },
    })

    const after = await h.call<ProviderInfo[]>('set_provider', {
      id: 'openai',
      base_url: `${h.fake.url}/v1`,
      api_key: 'sk-test',
    })
    expect(openaiIn(after)).toMatchObject({
      configured: true,
      source: 'settings',
      base_url: `${h.fake.url}/v1`,
      key: { set: true, last4: 'test', source: 'store' },
      keys_persist: false,
    })
    expect(JSON.stringify(h.events)).not.toContain('sk-test')
    expect(await h.call('test_provider', { id: 'openai' })).toMatchObject({
      ok: true,
      models: expect.arrayContaining(['gpt-4o-mini']),
    })

    // The chat uses it at once.
    const flow = await h.call<Flow>('create_flow', { name: 'x' })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'hi' })
    expect(
      await h.next('chat_status', (s) => s.node_id === node_id && s.state !== 'waiting' && s.state !== 'streaming'),
    ).toMatchObject({ state: 'done' })
  })

  it('report a wrong key when tested, and stop working once removed', async () => {
    const h = await start(noEnvProvider)
    await h.call('set_provider', { id: 'openai', base_url: `${h.fake.url}/v1`, api_key: 'sk-nope' })
    expect(await h.call('test_provider', { id: 'openai' })).toEqual({
      ok: false,
      models: [],
      message: 'invalid API key for OpenAI',
    })
    await h.call('remove_provider', { id: 'openai' })
    expect(await h.call('test_provider', { id: 'openai' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/OpenAI is not set up/),
    })
  })

  it('show providers from the environment as such, and refuse an address that is not http(s)', async () => {
    const h = await start()
    expect(openaiIn(await h.call<ProviderInfo[]>('list_providers', {}))).toMatchObject({
      configured: true,
      source: 'env',
      key: { set: true, last4: 'test', source: 'env' },
    })
    const r = await h.core.router.call(
      'set_provider',
      { id: 'openai', base_url: 'file:///etc/passwd' },
      { transport: 'internal' },
    )
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringContaining('base_url: must be an http:// or https:// URL') },
    })
  })

  it('finds a local Ollama (here: the fake speaking its API) and lists its models', async () => {
    const h = await start()
    await h.call('set_provider', { id: 'ollama', base_url: h.fake.url })
    expect(await h.call('detect_ollama', {})).toMatchObject({
      found: true,
      models: expect.arrayContaining(['llama3.2:latest']),
    })
  })
})
