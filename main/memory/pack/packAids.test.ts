import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MemoryJob, MemoryPack } from '@shared/contract'
import { exchange, useLlmCore, type LlmHarness } from '../../../tests/support/llmCore'

const setup = useLlmCore()

/** Everyday lines that share no word, trigram or meaning with the kitten or the queries. */
const filler = [
  'The train to Osaka was late again this morning.',
  'Bought new running shoes on sale.',
  'My sister moved into a flat near the river.',
  'Finished reading a novel about sailors.',
  'The printer at work jammed twice.',
  'Made miso soup with tofu for dinner.',
  'Rain all weekend, stayed in and painted.',
  'Started learning the guitar chords for a song.',
  'The dentist appointment went fine.',
  'Planted tomatoes on the balcony.',
  'Watched a documentary on volcanoes.',
  'Our team won the quiz night at the pub.',
  'Fixed the squeaky door hinge.',
  'Booked flights for the summer holiday.',
  'Tried a new ramen shop downtown.',
  'Cleaned out the garage finally.',
  'Lost my umbrella on the bus.',
  'Baked bread, it came out dense.',
  'Went hiking up a small mountain.',
  'The neighbours had a loud party.',
  'Wrote a letter to my grandmother.',
  'Renewed my passport at the office.',
]
const KITTEN = 'We brought home a tiny kitten from the shelter, she sleeps on the sofa.'

async function importLines(h: LlmHarness, personaId: string, texts: string[]): Promise<void> {
  const path = join(h.core.paths.home, 'lines.jsonl')
  const lines = texts.map((text, i) =>
    JSON.stringify({ id: `L${i}`, speaker: 'Aoi', text, time: 1_700_000_000 + i * 3600 }),
  )
  writeFileSync(path, lines.join('\n'))
  await h.call('memory_import', { persona_id: personaId, path, no_llm: true })
}

async function until(check: () => Promise<boolean>): Promise<void> {
  await expect.poll(check, { timeout: 20_000 }).toBe(true)
}

const items = (pack: MemoryPack) => pack.sections.flatMap((s) => s.items)

describe("the persona's embedding model", () => {
  it('finds a memory by meaning once the worker has embedded the memory, beside the local vectors', async () => {
    const h = await setup()
    h.fake.meaning(['kitten', 'feline'])
    const { id } = await h.call<{ id: string }>('create_persona', {
      name: 'Aoi',
      embedding_model: 'openai:text-embedding-3-small',
    })
    await importLines(h, id, [...filler, KITTEN])
    const ask = () =>
      h.call<MemoryPack>('memory_pack', { persona_id: id, query: 'How is my feline doing?', budget_tokens: 400 })

    // The first pack finds the memory unembedded: it queues the catch-up and answers from local vectors.
    type Status = { jobs: { done: number }; vectors: { model: string | null; waiting: number } }
    const status = () => h.call<Status>('memory_status', { persona_id: id })
    expect((await status()).vectors).toEqual({
      model: 'openai:text-embedding-3-small',
      waiting: filler.length + 1,
    })
    const before = await ask()
    expect(items(before).some((i) => /meaning #/.test(i.why))).toBe(false)
    await until(async () => (await status()).jobs.done >= 1)
    expect((await status()).vectors.waiting).toBe(0)
    const embedCalls = h.fake.requests.filter((r) => r.path === '/v1/embeddings')
    // One batch for the whole memory, then one call per pack for the query.
    expect(
      embedCalls.filter((r) => ((r.body as { input: string[] }).input ?? []).length === filler.length + 1),
    ).toHaveLength(1)

    const after = await ask()
    expect(after.vectors).toEqual(['local:hash-ngram-256', 'openai:text-embedding-3-small'])
    const kitten = items(after).find((i) => i.text.includes('tiny kitten'))
    expect(kitten?.why).toMatch(/meaning #1 \((0\.9\d|1\.00)\)/)

    // An edited memory is embedded again (and only it).
    const { units } = await h.call<{ units: Array<{ id: number; text: string }> }>('memory_list_units', {
      persona_id: id,
      query: 'tiny kitten',
    })
    await h.call('memory_edit_unit', {
      persona_id: id,
      unit_id: units[0]!.id,
      payload: { user_text: 'Our feline friend Momo knocked a glass off the table.' },
    })
    const calls = h.fake.requests.length
    await ask()
    await until(async () =>
      h.fake.requests
        .slice(calls)
        .some((r) => JSON.stringify(r.body).includes('knocked a glass') && r.path === '/v1/embeddings'),
    )
  }, 30_000)

  it('falls back to the local vectors when the provider fails, and the pack still comes', async () => {
    const h = await setup()
    h.fake.script({ provider: 'openai', endpoint: 'embed', status: 401 })
    const { id } = await h.call<{ id: string }>('create_persona', {
      name: 'Aoi',
      embedding_model: 'openai:text-embedding-3-small',
    })
    await importLines(h, id, [...filler, KITTEN])
    const pack = await h.call<MemoryPack>('memory_pack', {
      persona_id: id,
      query: 'the tiny kitten from the shelter',
      budget_tokens: 400,
    })
    expect(pack.vectors).toEqual(['local:hash-ngram-256'])
    expect(items(pack).some((i) => i.text.includes('tiny kitten'))).toBe(true)

    // The catch-up fails for good once; later packs do not queue it again and again.
    const failedEmbeds = async () =>
      (await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', { persona_id: id, status: 'failed' })).jobs.filter(
        (j) => j.kind === 'embed',
      )
    await until(async () => (await failedEmbeds()).length === 1)
    await h.call('memory_pack', { persona_id: id, query: 'kitten', budget_tokens: 400 })
    await h.call('memory_pack', { persona_id: id, query: 'shelter', budget_tokens: 400 })
    const all = await h.call<{ jobs: MemoryJob[] }>('memory_list_jobs', { persona_id: id })
    expect(all.jobs.filter((j) => j.kind === 'embed')).toHaveLength(1)
  })
})

/**
 * A built-in model's search as a user meets it: a memory that shares no word with the question is
 * found by meaning, with no provider asked (the word model's query is made on the main thread, the
 * sentence model's in the worker); a Japanese question is left to the words and n-grams.
 * `model`: the persona's choice, or the word model it gets by choosing none.
 */
async function findsByMeaning(c: { model: string; memory: string; query: string; found: string }) {
  const h = await setup()
  const chosen = c.model === 'local:words-en' ? {} : { embedding_model: c.model }
  const { id } = await h.call<{ id: string }>('create_persona', { name: 'Aoi', ...chosen })
  await importLines(h, id, [...filler, c.memory, '猫のモモがソファで寝ている。'])
  type Status = { vectors: { model: string | null; waiting: number } }
  const status = () => h.call<Status>('memory_status', { persona_id: id })
  await until(async () => (await status()).vectors.waiting === 0)
  expect((await status()).vectors.model).toBe(c.model)

  const pack = await h.call<MemoryPack>('memory_pack', { persona_id: id, query: c.query, budget_tokens: 400 })
  expect(pack.vectors).toEqual(['local:hash-ngram-256', c.model])
  // #1 or #2: the line after it is read after it, so it may come first.
  expect(items(pack).find((i) => i.text.includes(c.found))?.why).toMatch(/meaning #[12] /)
  expect(h.fake.requests.filter((r) => r.path.includes('embed'))).toEqual([])

  const ja = await h.call<MemoryPack>('memory_pack', { persona_id: id, query: 'モモは元気？', budget_tokens: 400 })
  expect(items(ja).some((i) => /meaning #/.test(i.why))).toBe(false)
  expect(items(ja).some((i) => i.text.includes('モモ'))).toBe(true)
}

describe('the built-in word model, for a persona that chose no embedding model', () => {
  it('finds a paraphrased memory through the pack, the query embedded with no worker round trip', async () => {
    // No word, trigram or hashed n-gram in common: only the words' meanings link the two.
    await findsByMeaning({
      model: 'local:words-en',
      memory: 'We finally adopted a puppy last weekend, a little beagle.',
      query: 'Does Aoi have a dog?',
      found: 'puppy',
    })
  }, 60_000)

  it('replaces the vectors of a model the persona no longer uses', async () => {
    const h = await setup()
    const { id } = await h.call<{ id: string }>('create_persona', { name: 'Aoi', embedding_model: 'local:sentence-en' })
    await importLines(h, id, [...filler, KITTEN])
    type Status = { vectors: { model: string | null; waiting: number } }
    const status = () => h.call<Status>('memory_status', { persona_id: id })
    await until(async () => (await status()).vectors.waiting === 0)
    expect((await status()).vectors.model).toBe('local:sentence-en')

    // Back to "words": every memory is embedded anew with the word model, though none changed.
    await h.call('update_persona', { id, embedding_model: null })
    await until(async () => (await status()).vectors.model === 'local:words-en')
    await until(async () => (await status()).vectors.waiting === 0)
    const pack = await h.call<MemoryPack>('memory_pack', {
      persona_id: id,
      query: 'any news about the cat?',
      budget_tokens: 400,
    })
    expect(items(pack).find((i) => i.text.includes('kitten'))?.why).toMatch(/meaning #/)
  }, 90_000)
})

describe('the built-in sentence model', () => {
  it('finds a memory by meaning with no provider, embedded in the worker, and leaves Japanese to the words', async () => {
    // Not a word, trigram or hashed n-gram in common: only meaning links the two.
    await findsByMeaning({
      model: 'local:sentence-en',
      memory: 'I have been going to kickboxing classes three evenings a week.',
      query: 'Does Aoi practise any martial arts?',
      found: 'kickboxing',
    })
  }, 60_000)

  it('is loaded in the worker as soon as a persona uses it, not at its first message', async () => {
    const logs: string[] = []
    const h = await setup({ log: (m) => logs.push(m) })
    await h.call('create_persona', { name: 'Ren' }) // words only: nothing to load
    await h.call('create_persona', { name: 'Aoi', embedding_model: 'local:sentence-en' })
    await expect
      .poll(() => logs.filter((l) => l.includes('the built-in sentence model is loaded')), { timeout: 60_000 })
      .toHaveLength(1)
    expect(h.fake.requests).toEqual([])
  }, 90_000)

  it('finds a short answer through the line it answers', async () => {
    const h = await setup()
    const { id } = await h.call<{ id: string }>('create_persona', { name: 'Aoi', embedding_model: 'local:sentence-en' })
    await importLines(h, id, [...filler, 'Did you ever go back to the pottery workshop?', 'Yes, twice last month!'])
    const status = () => h.call<{ vectors: { waiting: number } }>('memory_status', { persona_id: id })
    await until(async () => (await status()).vectors.waiting === 0)

    // The answer shares nothing with the question but what the line before it asked.
    const pack = await h.call<MemoryPack>('memory_pack', {
      persona_id: id,
      query: 'How often has Aoi been to ceramics classes?',
      budget_tokens: 400,
    })
    expect(items(pack).find((i) => i.text.includes('twice last month'))?.why).toMatch(/meaning #[12] /)
  }, 60_000)

  it('refuses an embedding model that is neither a provider model nor a built-in one, naming every form', async () => {
    const h = await setup()
    await expect(h.call('create_persona', { name: 'Aoi', embedding_model: 'local:sentence-fr' })).rejects.toThrow(
      /provider:model .*local:sentence-en or local:words-en/,
    )
  })
})

describe('intent by the lightweight model', () => {
  async function persona(h: LlmHarness): Promise<string> {
    const { id } = await h.call<{ id: string }>('create_persona', { name: 'Aoi', lightweight_model: 'openai:light' })
    await importLines(h, id, [...filler, KITTEN])
    return id
  }
  const intentCalls = (h: LlmHarness) =>
    h.fake.requests.filter((r) => r.model === 'light' && JSON.stringify(r.body).includes('long-term memory'))

  it('asks the model only when the rules are unsure, and remembers its answer', async () => {
    const h = await setup()
    h.fake.script({ provider: 'openai', model: 'light', reply: '{"intent":"plan"}' })
    const id = await persona(h)
    const pack = (query: string) => h.call<MemoryPack>('memory_pack', { persona_id: id, query, budget_tokens: 300 })

    const unsure = await pack('Momo and the sofa situation')
    expect(unsure).toMatchObject({ intent: 'plan', intent_by: 'model' })
    expect(intentCalls(h)).toHaveLength(1)
    expect(await pack('Momo and the sofa situation')).toMatchObject({ intent: 'plan', intent_by: 'model' })
    expect(intentCalls(h)).toHaveLength(1) // cached

    expect(await pack('Do you remember what I did yesterday?')).toMatchObject({ intent: 'recall', intent_by: 'rules' })
    expect(intentCalls(h)).toHaveLength(1)
  })

  it('keeps the rules’ answer when the model is too slow or answers nonsense', async () => {
    const h = await setup({ memory: { aidTimeoutMs: { intent: 300 } } })
    h.fake.script({
      provider: 'openai',
      model: 'light',
      promptIncludes: 'slow',
      delayMs: 3000,
      reply: '{"intent":"plan"}',
    })
    h.fake.script({ provider: 'openai', model: 'light', reply: '{"intent":"dance"}' })
    const id = await persona(h)
    // Had the pack waited for the slow model, the model's "plan" would have decided.
    const slow = await h.call<MemoryPack>('memory_pack', { persona_id: id, query: 'slow sofa', budget_tokens: 300 })
    expect(slow).toMatchObject({ intent: 'general', intent_by: 'rules' })
    const odd = await h.call<MemoryPack>('memory_pack', { persona_id: id, query: 'odd sofa', budget_tokens: 300 })
    expect(odd).toMatchObject({ intent: 'general', intent_by: 'rules' })
    // After the time-out the model rests: the nonsense was never asked for.
    expect(intentCalls(h)).toHaveLength(1)
  })

  it('keeps asking a reachable model that once answered nonsense (only that question falls back)', async () => {
    const h = await setup()
    // Nonsense twice: the answer and the one request to fix it.
    h.fake.script({ provider: 'openai', model: 'light', times: 2, reply: '{"intent":"dance"}' })
    h.fake.script({ provider: 'openai', model: 'light', reply: '{"intent":"fact"}' })
    const id = await persona(h)
    const pack = (query: string) => h.call<MemoryPack>('memory_pack', { persona_id: id, query, budget_tokens: 300 })
    expect(await pack('odd sofa')).toMatchObject({ intent: 'general', intent_by: 'rules' })
    expect(await pack('Momo the sofa cat')).toMatchObject({ intent: 'fact', intent_by: 'model' })
  })
})

describe('a reply does not wait on the model’s intent', () => {
  it('lets the rules decide for a chat turn: no intent call before the first word', async () => {
    const h = await setup()
    h.fake.script({ provider: 'openai', model: 'light', reply: '{"intent":"plan"}' })
    const { id } = await h.call<{ id: string }>('create_persona', { name: 'Aoi', lightweight_model: 'openai:light' })
    await importLines(h, id, [...filler, KITTEN])
    const flow = await h.call<{ id: string }>('create_flow', { name: 'chat', persona_id: id })
    await exchange(h, { flowId: flow.id, prompt: 'Momo and the sofa situation', reply: 'Ah, the sofa.' })
    const asked = h.fake.requests.filter(
      (r) => r.model === 'light' && JSON.stringify(r.body).includes('long-term memory'),
    )
    expect(asked).toHaveLength(0)
    // The inspector's pack still asks the model when the rules are unsure.
    expect(
      await h.call<MemoryPack>('memory_pack', {
        persona_id: id,
        query: 'Momo and the sofa situation',
        budget_tokens: 300,
      }),
    ).toMatchObject({ intent_by: 'model' })
  })
})
