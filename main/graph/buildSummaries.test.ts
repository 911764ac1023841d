import { describe, expect, it } from 'vitest'
import type { Flow, JobProgress, Node } from '@shared/contract'
import { useLlmCore } from '../../tests/support/llmCore'
import { sourceWorker } from '../../tests/support/sourceWorker'
import { parseSummary } from './summarizeJob'

const start = useLlmCore()

describe('build summaries (seed §7.2) in the job worker', () => {
  it('summarises and tags every stale node with the lightweight model, reporting progress', async () => {
    const h = await start({ jobWorker: sourceWorker() })
    const flow = await h.call<Flow>('create_flow', { name: 'trip' })
    const a = await h.call<Node>('create_node', {
      flow_id: flow.id,
      prompt: '京都のおすすめは？',
      response: '清水寺と伏見稲荷です。',
      tags: ['旅行'],
    })
    const b = await h.call<Node>('create_node', {
      flow_id: flow.id,
      prompt: '紅葉の時期は？',
      response: '11月下旬です。',
      parent_ids: [a.id],
    })
    h.fake.script({ provider: 'openai', reply: '要約: 京都の名所を尋ねた。\nタグ: 京都, 観光, 寺社' })

    const finished = h.next('job_progress', (p) => p.state === 'done')
    const { queued } = await h.call<{ queued: number }>('build_summaries', { flow_id: flow.id })
    expect(queued).toBe(2)
    expect((await finished) as JobProgress).toMatchObject({ done: 2, total: 2 })

    for (const id of [a.id, b.id]) {
      const node = await h.call<Node>('get_node', { id })
      expect(node.metadata.summary).toMatchObject({ text: '京都の名所を尋ねた。', updated: false })
      expect(node.metadata.summary.last_built).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(node.metadata.tags).toEqual(expect.arrayContaining(['京都', '観光', '寺社']))
    }
    expect((await h.call<Node>('get_node', { id: a.id })).metadata.tags[0]).toBe('旅行') // the user's own tag stays
    // The worker's changes reached open windows as node_updated events.
    expect(h.events.filter((e) => e.event === 'node_updated').length).toBeGreaterThanOrEqual(2)
    // The prompt of seed §7.2 went to the model, in the UI language.
    const sent = JSON.stringify(h.fake.requests.at(-1)!.body)
    expect(sent).toMatch(/要約とタグ付けを行う専門家|summarise and tag/)

    // Nothing stale is left: a second build queues nothing.
    expect(await h.call('build_summaries', { flow_id: flow.id })).toMatchObject({ queued: 0 })
  })

  it('summarises with the lightweight model of the persona whose conversation holds the node', async () => {
    const h = await start({ jobWorker: sourceWorker() })
    const persona = await h.call<{ id: string }>('create_persona', {
      name: 'Aoi',
      lightweight_model: 'openai:aoi-light',
    })
    const flow = await h.call<Flow>('create_flow', { name: 'trip', persona_id: persona.id })
    await h.call<Node>('create_node', { flow_id: flow.id, prompt: '紅葉の時期は？', response: '11月下旬です。' })
    h.fake.script({ provider: 'openai', model: 'aoi-light', reply: '要約: 紅葉の時期を尋ねた。\nタグ: 紅葉' })
    const finished = h.next('job_progress', (p) => p.state === 'done')
    await h.call('build_summaries', { flow_id: flow.id })
    expect((await finished) as JobProgress).toMatchObject({ done: 1, total: 1 })
    expect(h.fake.requests.at(-1)!.model).toBe('aoi-light')
  })

  it('dead-letters a job the provider refuses for good, and shows the failure in progress', async () => {
    const h = await start({ jobWorker: sourceWorker(), openaiKey: 'sk-wrong' })
    const flow = await h.call<Flow>('create_flow', { name: 'x' })
    await h.call<Node>('create_node', { flow_id: flow.id, prompt: 'p', response: 'r' })
    const failed = h.next('job_progress', (p) => p.state === 'failed')
    await h.call('build_summaries', { flow_id: flow.id })
    expect(await failed).toMatchObject({
      total: 1,
      error: expect.stringMatching(/^invalid API key for http:\/\/127\.0\.0\.1:\d+\/v1 \(OpenAI-compatible\)$/),
    })
  })
})

describe('reading the model’s summary', () => {
  it('takes the labelled lines in Japanese or English, capping tags at seven', () => {
    expect(parseSummary('要約：短い説明\nタグ: a、b, #c')).toEqual({ summary: '短い説明', tags: ['a', 'b', 'c'] })
    expect(parseSummary('Summary: A short one.\nTags: [x, y, z, 1, 2, 3, 4, 5]').tags).toHaveLength(7)
    expect(parseSummary('no labels at all')).toEqual({ summary: 'no labels at all', tags: [] })
  })
})

describe('summary defaults from the settings', () => {
  it('reach the worker: its model, temperature and length are used for the summaries', async () => {
    const h = await start({ jobWorker: sourceWorker(), env: { LOOMVERSE_DEFAULT_LIGHTWEIGHT_MODEL: '' } })
    await h.call('update_settings', { summary: { model: 'openai:gpt-4o', temperature: 0.1, max_tokens: 123 } })
    const flow = await h.call<Flow>('create_flow', { name: 'defaults' })
    await h.call<Node>('create_node', { flow_id: flow.id, prompt: 'p', response: 'r' })
    h.fake.script({ provider: 'openai', reply: '要約: 短い\nタグ: a, b, c' })
    const done = h.next('job_progress', (p) => p.state === 'done')
    await h.call('build_summaries', { flow_id: flow.id })
    await done
    expect(h.fake.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o', temperature: 0.1, max_tokens: 123 })
  })
})

describe('one node’s summary (seed §9.1 build_summary)', () => {
  it('rebuilds just that node, even when its summary is up to date, and refuses a node of another flow', async () => {
    const h = await start({ jobWorker: sourceWorker() })
    const flow = await h.call<Flow>('create_flow', { name: 'one' })
    const other = await h.call<Flow>('create_flow', { name: 'other' })
    const a = await h.call<Node>('create_node', { flow_id: flow.id, prompt: '京都', response: '関西' })
    const b = await h.call<Node>('create_node', {
      flow_id: flow.id,
      prompt: '札幌',
      response: '北海道',
      parent_ids: [a.id],
    })
    h.fake.script({ provider: 'openai', reply: '要約: 最初の要約\nタグ: 地名', times: 2 })
    await h.call('build_summaries', { flow_id: flow.id })
    await h.core.jobs.whenIdle()

    h.fake.script({ provider: 'openai', reply: '要約: 作り直した要約\nタグ: 地名' })
    expect(await h.call('build_summaries', { node_id: a.id })).toMatchObject({ queued: 1 })
    await h.core.jobs.whenIdle()
    expect((await h.call<Node>('get_node', { id: a.id })).metadata.summary.text).toBe('作り直した要約')
    expect((await h.call<Node>('get_node', { id: b.id })).metadata.summary.text).toBe('最初の要約')

    const refused = await h.core.router.call(
      'build_summaries',
      { flow_id: other.id, node_id: a.id },
      { transport: 'ws' },
    )
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})

describe('a worker that dies mid-job', () => {
  it('leaves the job running until the next start takes it back at once (no wait for its lease) and finishes it, once', async () => {
    const first = await start({ jobWorker: sourceWorker() })
    const flow = await first.call<Flow>('create_flow', { name: 'crash' })
    const node = await first.call<Node>('create_node', { flow_id: flow.id, prompt: '京都', response: '関西' })
    // The model takes long enough for the worker to be killed while it waits.
    first.fake.script({ provider: 'openai', delayMs: 60_000, reply: '要約: 遅い答え\nタグ: a, b, c', times: 1 })
    await first.call('build_summaries', { flow_id: flow.id })
    await expect.poll(() => first.fake.requests.length, { timeout: 5000 }).toBeGreaterThan(0)
    await first.core.jobs.terminate()
    expect((await first.call<Node>('get_node', { id: node.id })).metadata.summary.updated).toBe(true)
    const running = first.core.db.prepare('SELECT status, tries FROM jobs').get()
    expect(running).toEqual({ status: 1, tries: 1 }) // still held by the dead worker, leased for 300 s
    await first.core.dispose()

    const second = await start({ jobWorker: sourceWorker(), home: first.core.paths.home })
    second.fake.script({ provider: 'openai', reply: '要約: 取り戻した答え\nタグ: 京都, 関西, 地理' })
    await expect
      .poll(async () => (await second.call<Node>('get_node', { id: node.id })).metadata.summary.text, {
        timeout: 15_000,
      })
      .toBe('取り戻した答え')
    // The summary is written before the job is marked done: wait for the queue, not for the node.
    await second.core.jobs.whenIdle()
    expect(second.core.db.prepare('SELECT status, tries FROM jobs').all()).toEqual([{ status: 2, tries: 2 }])
  }, 30_000) // two workers start, one after the other
})
