import { describe, expect, it } from 'vitest'
import { useMemoryFiles } from '../../tests/support/memoryFiles'
import { embeddingText } from './embedJob'
import { UnitKind, UnitState } from './enums'
import { modelVectorMeta, nearestByModel, takeDirty, writeModelVectors } from './modelVectors'
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

describe('turns embedded after the turn before them (memory migration 7)', () => {
  it('embeds a sentence-model memory again, and leaves a provider model’s vectors alone', async () => {
    const { migrate } = await import('./migrations/0007-embed-turns-in-context')
    for (const [model, again] of [
      ['local:sentence-en', true],
      ['openai:text-embedding-3-small', false],
    ] as const) {
      const store = memory()
      const a = episode(store, 'first')
      const b = episode(store, 'second')
      writeModelVectors(
        store.db,
        model,
        takeDirty(store.db, 10).map((u) => ({ ...u, vector: [1, 0, 0] })),
      )
      expect(takeDirty(store.db, 10)).toEqual([])
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
