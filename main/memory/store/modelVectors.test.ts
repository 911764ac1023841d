import { describe, expect, it } from 'vitest'
import { useMemoryFiles } from '../../../tests/support/memoryFiles'
import { embedDirty, embeddingText, sentencesOf } from '../jobs/embedJob'
import { UnitKind, UnitState } from './enums'
import { int8Blob, int8Parts, modelVectorMeta, nearestByModel, takeDirty, writeModelVectors } from './modelVectors'
import type { MemoryStore } from './store'

const memory = useMemoryFiles()

function episode(store: MemoryStore, text: string): number {
  return store.createUnit({ kind: UnitKind.EPISODE, state: UnitState.RAW, payload: { user_text: text } })
}

describe('model vectors', () => {
  it('marks new and edited searchable units dirty, and a write clears only what it embedded', async () => {
    const store = memory()
    const a = episode(store, 'first')
    const b = episode(store, 'second')
    store.createUnit({ kind: UnitKind.PERSONA, payload: { persona_text: 'who I am', is_active: 1 } })
    const taken = takeDirty(store.db, 10)
    expect(taken.map((u) => u.id)).toEqual([a, b]) // the persona anchor is never searched by vector
    // `b` is edited while its vector is being made: it stays dirty after the write.
    store.editPayload(b, { user_text: 'second, edited' }, 'edit')
    writeModelVectors(
      store.db,
      'openai:m',
      taken.map((u, i) => ({ ...u, vector: [1, i, 0] })),
    )
    expect(takeDirty(store.db, 10).map((u) => u.id)).toEqual([b])
    expect(nearestByModel(store.db, 'openai:m', [1, 0, 0], UnitKind.EPISODE, 1)).toEqual([
      { id: a, distance: expect.closeTo(0, 5) },
    ])
    // Another model's question finds nothing rather than nonsense.
    expect(nearestByModel(store.db, 'openai:other', [1, 0, 0], UnitKind.EPISODE, 1)).toEqual([])
    store.deleteUnit(a)
    expect(nearestByModel(store.db, 'openai:m', [1, 0, 0], UnitKind.EPISODE, 5).map((r) => r.id)).toEqual([b])
  })

  it('starts afresh when the model or its width changes, and refuses vectors of mixed lengths', () => {
    const store = memory()
    const a = episode(store, 'one')
    const b = episode(store, 'two')
    const all = takeDirty(store.db, 10)
    writeModelVectors(
      store.db,
      'openai:small',
      all.map((u) => ({ ...u, vector: [1, 0] })),
    )
    expect(takeDirty(store.db, 10)).toEqual([])
    writeModelVectors(store.db, 'ollama:big', [{ ...all[0]!, vector: [0, 1, 0, 0] }])
    expect(modelVectorMeta(store.db)).toEqual({ model: 'ollama:big', dims: 4 })
    // Everything else must be embedded again by the new model.
    expect(takeDirty(store.db, 10).map((u) => u.id)).toEqual([b])
    expect(() =>
      writeModelVectors(store.db, 'ollama:big', [
        { id: a, kind: 1, gen: 0, vector: [1, 0, 0, 0] },
        { id: b, kind: 1, gen: 0, vector: [1, 0] },
      ]),
    ).toThrow(/different lengths/)
  })
})

/** Which memories a migration has embedded again: the built-in model's (free), not a provider's. */
const REEMBEDDED = [
  ['local:sentence-en', true],
  ['openai:text-embedding-3-small', false],
] as const

/** Every dirty unit gets a vector from `model`; none is left dirty. */
function embedAll(store: MemoryStore, model: string): void {
  writeModelVectors(
    store.db,
    model,
    takeDirty(store.db, 10).map((u) => ({ ...u, vector: [1, 0, 0] })),
  )
  expect(takeDirty(store.db, 10)).toEqual([])
}

describe('turns embedded after the turn before them (memory migration 7)', () => {
  it('embeds a sentence-model memory again, and leaves a provider model’s vectors alone', async () => {
    const { migrate } = await import('../migrations/0007-embed-turns-in-context')
    for (const [model, again] of REEMBEDDED) {
      const store = memory()
      const a = episode(store, 'first')
      const b = episode(store, 'second')
      embedAll(store, model)
      migrate(store.db)
      expect(takeDirty(store.db, 10).map((u) => u.id)).toEqual(again ? [a, b] : [])
    }
  })
})

describe('what the embedding model reads for a turn', () => {
  it('reads the turn whole after the end of the one before it in its conversation, never crowded out by it', () => {
    const store = memory()
    const chat = (text: string, flow: string) =>
      store.createUnit({
        kind: UnitKind.EPISODE,
        source: 'chat',
        origin_flow_id: flow,
        payload: { user_text: text },
      })
    const question = chat('Did you ever go back to the pottery workshop?', 'f1')
    chat('An aside in another conversation.', 'f2')
    const answer = chat('Yes, twice last month!', 'f1')
    const read = (id: number) => embeddingText(store, store.requireUnit(id))
    const own = (id: number) => store.text(store.requireUnit(id))
    expect(read(answer)).toBe(`${own(question)}\n${own(answer)}`)
    expect(read(question)).toBe(own(question)) // the first turn: alone

    // After a very long turn, only its end comes along: the sentence model reads 2,000 characters.
    chat(`${'la '.repeat(2000)}and that was the whole story.`, 'f1')
    const short = chat('Wow, what a day.', 'f1')
    const text = read(short)
    expect(text.endsWith(`and that was the whole story.\n${own(short)}`)).toBe(true)
    expect(text.length).toBeLessThan(2000)
  })
})

describe('each sentence of a turn, embedded by the built-in model (memory migration 10)', () => {
  const sentenceRows = (store: MemoryStore, id: number) =>
    store.db.prepare('SELECT count(*) FROM model_sentences WHERE unit_id = ?').pluck().get(id) as number

  /** A stand-in model: one vector per text, and every call's texts, as the job sent them. */
  function recording() {
    const calls: string[][] = []
    const embed = (texts: string[]) => {
      calls.push(texts)
      return Promise.resolve(texts.map((t) => [t.length, 1, t.charCodeAt(0)]))
    }
    return { calls, embed }
  }

  it('stores a sentence vector in a quarter of the space, to within half an int8 step', () => {
    let seed = 3
    const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5
    for (let n = 0; n < 50; n++) {
      const v = Float32Array.from({ length: 512 }, random)
      const blob = int8Blob(v)
      expect(blob.length).toBe(516)
      const back = int8Parts(blob, 512)!
      const step = Math.max(...v.map(Math.abs)) / 127
      for (let d = 0; d < 512; d++)
        expect(Math.abs(back.q[d]! * back.step - v[d]!)).toBeLessThanOrEqual(step / 2 + 1e-6)
    }
    expect(int8Parts(int8Blob(new Float32Array(8)), 16)).toBeNull()
  })

  it('reads each sentence after its speaker, leaves out fragments, and reads a one-sentence turn whole', () => {
    expect(
      sentencesOf("Melanie: Yep! Taking care of ourselves is vital. I'm off to go swimming with the kids."),
    ).toEqual(['Melanie: Taking care of ourselves is vital.', "Melanie: I'm off to go swimming with the kids."])
    expect(sentencesOf('Caroline: Hey Mel! Good to see you!')).toEqual(['Caroline: Hey Mel! Good to see you!'])
    // A chat turn: each line's sentences go with that line's speaker.
    expect(sentencesOf('User: Where did you go last week?\nPersona: We went to the lake. The water was cold.')).toEqual(
      ['User: Where did you go last week?', 'Persona: We went to the lake.', 'Persona: The water was cold.'],
    )
  })

  it('stores a turn’s sentences with its vector, in calls of a few texts, and none for a provider’s model', async () => {
    const store = memory()
    const long = episode(store, 'I went to a support group yesterday. It was really powerful for me. Hi!')
    const short = episode(store, 'Lovely day at the beach')
    const { calls, embed } = recording()
    expect(await embedDirty(store, 'local:sentence-en', embed)).toBe(true)
    const sent = calls.flat()
    expect(sent).toContain('User: I went to a support group yesterday.')
    expect(sent).toContain('User: It was really powerful for me.')
    expect(sent).toContain('User: Lovely day at the beach') // a turn of one sentence, read alone
    expect(Math.max(...calls.map((c) => c.length))).toBeLessThanOrEqual(8)
    expect([sentenceRows(store, long), sentenceRows(store, short)]).toEqual([2, 1])

    // An edit replaces them with the new text's; a delete takes them away.
    store.editPayload(long, { user_text: 'Just one sentence now' }, 'edit')
    await embedDirty(store, 'local:sentence-en', embed)
    expect(sentenceRows(store, long)).toBe(1)
    store.deleteUnit(long)
    expect(sentenceRows(store, long)).toBe(0)

    // A paid provider embeds each turn once, as before.
    const paid = memory()
    const turn = episode(paid, 'I went to a support group yesterday. It was really powerful for me.')
    const provider = recording()
    await embedDirty(paid, 'openai:text-embedding-3-small', provider.embed)
    expect(provider.calls.flat()).toHaveLength(1)
    expect(sentenceRows(paid, turn)).toBe(0)
  })

  it('has a sentence-model memory embedded again for its sentences, and leaves a provider model’s alone', async () => {
    const { migrate } = await import('../migrations/0010-sentence-vectors')
    for (const [model, again] of REEMBEDDED) {
      const store = memory()
      const a = episode(store, 'first')
      store.createUnit({
        kind: UnitKind.FACT,
        payload: { predicate: 'likes', object_text: 'tea', evidence_unit_ids_json: '[]' },
      })
      embedAll(store, model)
      migrate(store.db)
      expect(takeDirty(store.db, 10).map((u) => u.id)).toEqual(again ? [a] : [])
    }
  })
})
