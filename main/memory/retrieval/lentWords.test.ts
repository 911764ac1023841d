import { describe, expect, it } from 'vitest'
import { importTurns, useMemoryFiles } from '../../../tests/support/memoryFiles'
import { UnitKind } from '../store/enums'
import type { MemoryStore } from '../store/store'
import { hybridRetrieve } from './retrieval'
import { SENTENCE_MODEL } from './sentenceModel'
import { wordSearch } from './wordRanking'

// A reply found by the words of the question it answers ("How often do you all work out
// together?" / "Three times a week"), when no embedding model reads turns after the one before.

const emptyMemory = useMemoryFiles()

/** A memory of `speaker: text` turns imported as one log, a minute apart. */
const memoryOf = (turns: Array<[string, string]>) => importTurns(emptyMemory(), turns, 60)

const refOf = (store: MemoryStore, id: number) => store.refs(store.unit(id)!, [])[0]?.id
/** The turn ids the word search ranks, best first: lending as a pack without an embedding model does. */
const ranked = (store: MemoryStore, query: string, lend = true) =>
  wordSearch(store, query, Infinity, lend).ranked.map(([id]) => refOf(store, id))

const filler: Array<[string, string]> = Array.from({ length: 20 }, (_, i) => [
  i % 2 ? 'Maria' : 'John',
  `The weather was grey again, day ${i}.`,
])

describe('the words a question lends its reply', () => {
  const exchange: Array<[string, string]> = [
    ['Maria', 'Great news! How often do you all work out together?'],
    ['John', 'Three times a week; it keeps us on track.'],
    ['Maria', 'I work out at the gym by the river.'],
    ['John', 'Sounds lovely.'],
    ...filler,
  ]

  it('find the reply that holds none of the query words, right after the question that does', () => {
    const store = memoryOf(exchange)
    expect(ranked(store, 'How often do they work out?')).toContain('t2')
    expect(ranked(store, 'How often do they work out?', false)).not.toContain('t2')
  })

  it('come only from a turn that asks: a turn after a statement borrows nothing', () => {
    const store = memoryOf(exchange)
    expect(ranked(store, 'Where do they work out?')).toContain('t3')
    expect(ranked(store, 'Where do they work out?')).not.toContain('t4')
  })

  it("are not lent across conversations: the next unit of another log is not the question's reply", () => {
    const store = emptyMemory()
    const turn = (text: string, source: string, kind = UnitKind.EPISODE) =>
      store.createUnit({ kind, source, payload: { user_text: text, context_note: 'speaker: Maria' } })
    turn('How often do you all work out together?', 'chat-a')
    const otherLog = turn('Three times a week; it keeps us on track.', 'chat-b')
    turn('How often do you all work out together?', 'chat-a')
    const fact = store.createUnit({
      kind: UnitKind.FACT,
      payload: { predicate: 'exercises', object_text: 'three times a week', evidence_unit_ids_json: '[]' },
    })
    for (const [speaker, text] of filler) turn(`${speaker}: ${text}`, 'chat-c')
    const found = wordSearch(store, 'How often do they work out?', Infinity, true).ranked.map(([id]) => id)
    expect(found).not.toContain(otherLog)
    expect(found).not.toContain(fact)
  })

  it('are not lent when the embedding model answers: it reads each turn after the one before already', () => {
    const store = memoryOf(exchange)
    const now = Date.UTC(2023, 4, 9) / 1000
    const words = (modelVector?: { model: string; vector: number[] }) =>
      hybridRetrieve(store, { query: 'How often do they work out?', modelVector }, false, now).lists.words.ranked.map(
        ([id]) => refOf(store, id),
      )
    expect(words()).toContain('t2')
    expect(
      words({ model: SENTENCE_MODEL, vector: Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0)) }),
    ).not.toContain('t2')
  })
})
