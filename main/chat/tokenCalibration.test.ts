import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ContextPreview, Flow, Node } from '@shared/contract'
import { appSchema } from '../appSchema'
import { openDatabase } from '../db/open'
import { TokenCalibration } from '../llm/tokenCalibration'
import { countTokens as fakeCount } from '../../tests/support/fakeLlm/scripts'
import { useLlmCore } from '../../tests/support/llmCore'
import { useTempHome } from '../../tests/support/tempHome'

const start = useLlmCore()
const home = useTempHome()

/** About a hundred tokens of words that differ from turn to turn. */
const words = (turn: number) => Array.from({ length: 90 }, (_, i) => `t${turn}w${i}`).join(' ')

describe('token counts calibrated from the usage a provider reports', () => {
  it('a model that counts more tokens than we do gets less of ours, so its context stops overflowing', async () => {
    const h = await start()
    // The provider's tokenizer counts these prompts as one and a half to two times the tokens o200k does.
    const scale = 3
    h.fake.script({ provider: 'openai', reply: 'noted', promptTokenScale: scale })
    // The model counts the tools' schemas sent beside the messages too.
    const asTheModelCounts = (body: { messages: Array<{ content: string }>; tools?: unknown[] }) =>
      scale *
      (body.messages.reduce((sum, m) => sum + fakeCount(m.content), 0) +
        (body.tools ? fakeCount(JSON.stringify(body.tools)) : 0))
    const flow = await h.call<Flow>('create_flow', { name: 'long' })
    await h.call('update_flow', { id: flow.id, token_budget: 4000 })
    let parent: string | null = null
    for (let turn = 0; turn < 40; turn++) {
      const node: Node = await h.call<Node>('create_node', {
        flow_id: flow.id,
        prompt: words(turn),
        response: 'ok',
        ...(parent ? { parent_ids: [parent] } : {}),
      })
      parent = node.id
    }
    const preview = () =>
      h.call<ContextPreview>('build_context', { flow_id: flow.id, parent_ids: [parent!], prompt: 'and now?' })
    const before = await preview()
    expect(before.calibration).toBeUndefined()
    expect(before.budget).toBe(4000)

    const modelCounts: number[] = []
    for (let turn = 0; turn < 5; turn++) {
      const { node_id } = await h.call<{ node_id: string }>('chat_send', {
        flow_id: flow.id,
        parent_id: parent!,
        prompt: `question ${turn}`,
      })
      await h.next('chat_status', (s) => s.node_id === node_id && s.state === 'done')
      const sent = h.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as {
        messages: Array<{ content: string }>
        tools?: unknown[]
      }
      modelCounts.push(asTheModelCounts(sent))
      parent = node_id
    }

    const after = await preview()
    expect(after.calibration).toMatchObject({ model: 'openai:gpt-4o-mini', samples: 5 })
    expect(after.calibration!.ratio).toBeGreaterThan(1.5)
    // Counts are shown as the model counts them, against the budget the user set; fewer earlier
    // turns go along, since the budget holds less of our count.
    expect(after.budget).toBe(4000)
    expect(after.total_tokens).toBeLessThanOrEqual(4000)
    const turns = (c: ContextPreview) => c.parts.filter((p) => p.kind !== 'prompt' && p.kind !== 'system').length
    expect(turns(after)).toBeLessThan(turns(before))
    // The first request, sized by our count alone, went over the budget as the model counts it
    // (its beginning would have been cut); once calibrated, the conversation fits.
    // The ratio is one average over text and the tools' schemas, which a tokenizer counts
    // differently, so a calibrated request lands within a few percent of the budget.
    expect(modelCounts[0]).toBeGreaterThan(4000 * 1.4)
    expect(modelCounts.at(-1)).toBeLessThanOrEqual(4000 * 1.02)
  })
})

/** The factor a model's counts get: 1 until it has reported usage. */
const ratioOf = (c: TokenCalibration, model: string) => c.of(model)?.ratio ?? 1

describe('TokenCalibration', () => {
  function calibration() {
    const { db } = openDatabase(join(home(), 'loomverse.db'), { domains: appSchema, label: 'loomverse.db' })
    return new TokenCalibration(db)
  }

  it('learns nothing from short prompts or implausible counts, and follows a steady ratio', () => {
    const c = calibration()
    expect(ratioOf(c, 'ollama:llama3')).toBe(1)
    c.record('ollama:llama3', 50, 120) // framing, not tokenizer
    c.record('ollama:llama3', 1000, 9000) // something else counted (pictures, cache)
    expect(c.of('ollama:llama3')).toBeNull()
    for (let i = 0; i < 5; i++) c.record('ollama:llama3', 1000, 1300)
    expect(c.of('ollama:llama3')).toMatchObject({ samples: 5 })
    expect(ratioOf(c, 'ollama:llama3')).toBeCloseTo(1.3, 5)
    // Another model keeps its own.
    expect(ratioOf(c, 'openai:gpt-4o-mini')).toBe(1)
  })

  it('moves toward a new ratio within a few replies (the server swapped the model behind the name)', () => {
    const c = calibration()
    for (let i = 0; i < 30; i++) c.record('openai:local', 1000, 1000)
    for (let i = 0; i < 10; i++) c.record('openai:local', 1000, 1600)
    expect(ratioOf(c, 'openai:local')).toBeGreaterThan(1.35)
    expect(ratioOf(c, 'openai:local')).toBeLessThan(1.6)
  })
})
