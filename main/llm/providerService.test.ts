import { describe, expect, it } from 'vitest'
import type { Flow, ProviderInfo } from '@shared/contract'
import { firstChatModel } from '@shared/modelNames'
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
      message: expect.stringMatching(/^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/),
      defaults_set: [],
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

  it('test what is typed before it is saved, and a first working provider gives the chat its first model', async () => {
    const h = await start({ env: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '', LOOMVERSE_DEFAULT_MODEL: '' } })
    // Typed, not saved: the right address answers, a wrong one is named as typed.
    expect(
      await h.call('test_provider', { id: 'openai', base_url: `${h.fake.url}/v1`, api_key: 'sk-test' }),
    ).toMatchObject({ ok: true, models: expect.arrayContaining(['gpt-4o-mini']), defaults_set: [] })
    const closed = await h.call<{ ok: boolean; message: string }>('test_provider', {
      id: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      api_key: 'sk-test',
    })
    expect(closed).toMatchObject({ ok: false, message: 'could not reach http://127.0.0.1:9/v1 (OpenAI-compatible)' })
    expect(openaiIn(await h.call<ProviderInfo[]>('list_providers', {}))).toMatchObject({ configured: false })
    expect((await h.call<{ chat: { model: string | null } }>('get_settings', {})).chat.model).toBeNull()

    // Saved and tested: the chat and summary defaults take its first model, and a chat uses it.
    await h.call('set_provider', { id: 'openai', base_url: `${h.fake.url}/v1`, api_key: 'sk-test' })
    const tested = await h.call<{ ok: boolean; models: string[]; defaults_set: string[] }>('test_provider', {
      id: 'openai',
    })
    expect(tested.defaults_set).toEqual(['chat', 'summary'])
    const settings = await h.call<{ chat: { model: string }; summary: { model: string } }>('get_settings', {})
    // The first that can chat: the list may start with a picture or embedding model.
    expect(settings.chat.model).toBe(`openai:${firstChatModel(tested.models)}`)
    expect(settings.summary.model).toBe(settings.chat.model)
    expect(settings.chat.model).toMatch(/^openai:gpt-4o/)
    // A choice the user made is never overridden.
    await h.call('update_settings', { chat: { model: 'openai:my-pick', temperature: null, max_tokens: null } })
    expect(await h.call('test_provider', { id: 'openai' })).toMatchObject({ defaults_set: [] })
    expect((await h.call<{ chat: { model: string } }>('get_settings', {})).chat.model).toBe('openai:my-pick')
  })
})
