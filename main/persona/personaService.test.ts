import { describe, expect, it } from 'vitest'
import { AVATAR_MAX_BYTES, type Flow, type Persona } from '@shared/contract'
import { pngWith } from '../../tests/support/foreignFiles'
import { useLlmCore } from '../../tests/support/llmCore'

const start = useLlmCore()

describe('personas', () => {
  it('are created, listed, updated and deleted through the contract, telling every window', async () => {
    const h = await start()
    const mio = await h.call<Persona>('create_persona', {
      name: 'Mio',
      persona_text: '京都に住む司書。',
      chat_model: 'openai:gpt-4o',
    })
    expect(mio).toMatchObject({ name: 'Mio', chat_model: 'openai:gpt-4o', lightweight_model: null, contract_text: '' })
    expect(await h.call<Persona[]>('list_personas', {})).toHaveLength(1)
    const updated = await h.call<Persona>('update_persona', {
      id: mio.id,
      contract_text: '毎朝おはようと言う。',
      temperature: 0.7,
    })
    expect(updated).toMatchObject({
      persona_text: '京都に住む司書。',
      contract_text: '毎朝おはようと言う。',
      temperature: 0.7,
    })
    expect(h.events.filter((e) => e.event === 'personas_changed')).toHaveLength(2)
    await h.call('delete_persona', { id: mio.id })
    expect(await h.call<Persona[]>('list_personas', {})).toEqual([])
  })

  it('keep a picture typed by its bytes, replace or remove it, and lose it with the persona', async () => {
    const h = await start()
    const mio = await h.call<Persona>('create_persona', { name: 'Mio' })
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')
    expect(await h.call('set_persona_avatar', { id: mio.id, data_base64: gif.toString('base64') })).toEqual({
      mime: 'image/gif',
      data_base64: gif.toString('base64'),
    })
    const png = pngWith({})
    await h.call('set_persona_avatar', { id: mio.id, data_base64: png.toString('base64') })
    expect(await h.call('get_persona_avatar', { id: mio.id })).toMatchObject({ mime: 'image/png' })
    const big = h.core.router.call(
      'set_persona_avatar',
      { id: mio.id, data_base64: Buffer.concat([png, Buffer.alloc(AVATAR_MAX_BYTES)]).toString('base64') },
      { transport: 'ws' },
    )
    expect(await big).toMatchObject({ ok: false })
    expect(await h.call('get_persona_avatar', { id: mio.id })).toMatchObject({ mime: 'image/png' })
    await h.call('set_persona_avatar', { id: mio.id, data_base64: null })
    expect(await h.call('get_persona_avatar', { id: mio.id })).toBeNull()
    await h.call('set_persona_avatar', { id: mio.id, data_base64: png.toString('base64') })
    await h.call('delete_persona', { id: mio.id })
    const left = h.core.db.prepare('SELECT COUNT(*) AS n FROM persona_avatars').get() as { n: number }
    expect(left.n).toBe(0)
  })

  it('refuses a model that is not provider:model, naming the field', async () => {
    const h = await start()
    const r = await h.core.router.call('create_persona', { name: 'X', chat_model: 'gpt-4o' }, { transport: 'internal' })
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input' } })
    expect(!r.ok && r.error.message).toMatch(/chat_model: write provider:model/)
  })

  it('speak in the conversations bound to them: their text leads the system prompt and their model answers', async () => {
    const h = await start()
    const mio = await h.call<Persona>('create_persona', {
      name: 'Mio',
      persona_text: '京都に住む司書。',
      contract_text: '敬語で話す。',
      chat_model: 'openai:gpt-4o',
    })
    const flow = await h.call<Flow>('create_flow', { name: 'with Mio' })
    await h.call('update_flow', { id: flow.id, persona_id: mio.id, system_prompt: '短く答える。' })
    const { node_id } = await h.call<{ node_id: string }>('chat_send', { flow_id: flow.id, prompt: 'こんにちは' })
    await h.next('chat_status', (s) => s.node_id === node_id && s.state === 'done')
    const sent = h.fake.requests.at(-1)!.body as { model: string; messages: Array<{ role: string; content: string }> }
    expect(sent.model).toBe('gpt-4o')
    expect(sent.messages[0]!.content).toMatch(
      /^You are Mio\.\n\n京都に住む司書。\n\n\[Contract\]\n敬語で話す。\n\n短く答える。/,
    )
    // Deleting the persona leaves the conversation, unbound.
    await h.call('delete_persona', { id: mio.id })
    expect(await h.call<Flow>('get_flow', { id: flow.id })).toMatchObject({ persona_id: null })
  })

  it('refuses to bind a conversation to a persona that does not exist', async () => {
    const h = await start()
    const flow = await h.call<Flow>('create_flow', { name: 'x' })
    await expect(h.call('update_flow', { id: flow.id, persona_id: 'nobody' })).rejects.toThrow(
      /not_found: persona nobody not found/,
    )
  })
})
