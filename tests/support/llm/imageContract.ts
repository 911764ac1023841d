// What every connector that can draw must do the same way: registered with `it` inside the
// caller's describe, against the fake server of `useConnectorHarness`.

import { expect, it } from 'vitest'
import { serverName } from '../../../main/llm/llmError'
import type { ImageRequest } from '../../../main/llm/types'
import { pictureBytes, type ConnectorHarness, type ConnectorOptions } from './connectorHarness'

export interface ImageContractOptions {
  /** An image model the fake knows. */
  imageModel: string
  /** A key the fake refuses. */
  wrongKey: string
}

export function imageContract(h: ConnectorHarness, { imageModel, wrongKey }: ImageContractOptions): void {
  const { provider } = h
  // How messages name the server: an OpenAI-compatible one by its address (the fake's, per test).
  const name = () => serverName(provider, `${h.fake.url}/v1`)
  const draw = (request: Partial<ImageRequest> = {}, options?: ConnectorOptions) =>
    h.connector(options).generateImage({ model: imageModel, prompt: 'a red fox in snow', ...request })
  const failure = async (request: Partial<ImageRequest> = {}, options?: ConnectorOptions) => {
    const error: unknown = await draw(request, options).then(
      () => null,
      (e: unknown) => e,
    )
    if (!error) throw new Error('the picture did not fail')
    return error
  }

  it('returns a real PNG, typed by its bytes, for the model and prompt it sent', async () => {
    const bytes = pictureBytes(await draw())
    expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR')
    const sent = h.fake.requests.at(-1)
    expect(sent?.model).toBe(imageModel)
    expect(JSON.stringify(sent?.body)).toContain('a red fox in snow')
    expect(h.fake.requests).toHaveLength(1)
  })

  it('draws a different picture for a different prompt', async () => {
    const fox = pictureBytes(await draw())
    const owl = pictureBytes(await draw({ prompt: 'an owl at night' }))
    expect(owl.equals(fox)).toBe(false)
  })

  it('maps a wrong key to auth, without repeating the key', async () => {
    const error = await failure({}, { apiKey: wrongKey })
    expect(error).toMatchObject({ failure: 'auth', message: `invalid API key for ${name()}`, retryable: false })
    expect((error as Error).message).not.toContain(wrongKey.slice(0, 8))
  })

  it('maps 429 to a retryable rate_limited with the provider’s delay, without retrying inside', async () => {
    h.fake.script({ provider, endpoint: 'image', status: 429, retryAfterMs: 2000 })
    expect(await failure()).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterMs: 2000 })
    expect(h.fake.requests).toHaveLength(1)
  })

  it('maps a refused request (400) to bad_request in words', async () => {
    h.fake.script({ provider, endpoint: 'image', status: 400 })
    expect(await failure()).toMatchObject({
      failure: 'bad_request',
      retryable: false,
      message: expect.stringMatching(
        new RegExp(`^${name().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} refused the request: .+`),
      ),
    })
  })

  it('maps an unknown model (404) to not_found', async () => {
    expect(await failure({ model: 'no-such-painter' })).toMatchObject({
      failure: 'not_found',
      message: `model not found on ${name()}: no-such-painter`,
    })
  })

  it('stops with an aborted LlmError when the signal fires while the picture is drawn', async () => {
    h.fake.script({ provider, endpoint: 'image', delayMs: 1000 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    const started = performance.now()
    expect(await failure({ signal: controller.signal })).toMatchObject({ failure: 'aborted', retryable: false })
    expect(performance.now() - started).toBeLessThan(900)
  })

  it('times out after imageTimeoutMs', async () => {
    h.fake.script({ provider, endpoint: 'image', delayMs: 1000 })
    expect(await failure({}, { imageTimeoutMs: 150 })).toMatchObject({ failure: 'timeout', retryable: true })
  })

  it('reports an unreachable server as unavailable', async () => {
    await h.fake.close()
    expect(await failure()).toMatchObject({
      failure: 'unavailable',
      message: expect.stringContaining(`could not reach ${name()}`),
    })
  })
}
