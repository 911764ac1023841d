import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../db/open'
import { openMemory } from '../store/db'
import { importLines } from '../import/importer'
import { memoryMigrations } from '../migrations'
import { queryWords } from './queryWords'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from '../store/store'
import { queryTimeWindow } from './timeWindow'

// What the MemoryPack finds in an imported chat log when the budget holds only a few turns:
// word ranking (BM25 over stemmed words), the named speaker and the named month.

const open: MemoryStore[] = []
const dirs: string[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.db.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-recall-'))
  dirs.push(dir)
  return dir
}
function memory(): MemoryStore {
  const store = openMemory(join(tempDir(), 'memory_p1.db'))
  open.push(store)
  return store
}

const MAY_2023 = Date.UTC(2023, 4, 8) / 1000
const DAY = 86_400

/** Imports turns as `speaker: text` lines, a day apart from 8 May 2023 unless `at` says otherwise. */
function log(store: MemoryStore, turns: Array<[string, string, number?]>): void {
  const lines = turns.map(([speaker, text, at], i) =>
    JSON.stringify({ id: `t${i + 1}`, speaker, text, time: at ?? MAY_2023 + i * DAY }),
  )
  expect(importLines(store, lines.join('\n'))).toMatchObject({ imported: turns.length, skipped: 0 })
}

/** The turn ids (import refs) a pack holds, in pack order. */
function packed(store: MemoryStore, query: string, budget: number): string[] {
  const pack = buildPack(store, { query, budget, path: null })
  expect(pack.tokens).toBeLessThanOrEqual(budget)
  return pack.sections.flatMap((s) => s.items.flatMap((i) => i.refs.map((r) => r.id)))
}

/** Filler turns that share no word with the questions below. */
function chatter(n: number): Array<[string, string]> {
  const topics = ['weather', 'traffic', 'lunch', 'groceries', 'laundry', 'emails', 'podcasts', 'furniture']
  return Array.from({ length: n }, (_, i) => [
    i % 2 ? 'Melanie' : 'Caroline',
    `Nothing much, just ${topics[i % topics.length]} and ${topics[(i * 3 + 1) % topics.length]} today, number ${i}.`,
  ])
}

/**
 * The answering turns, `filler` chatter turns, then newer decoys that hold the question's own
 * words and answer nothing.
 */
function answersThenDecoys(
  store: MemoryStore,
  answers: Array<[string, string]>,
  decoys: Array<[string, string]>,
  filler = 40,
): void {
  log(store, [...answers, ...chatter(filler), ...decoys])
}

describe('MemoryPack retrieval on an imported chat log', () => {
  it('ranks a turn by the word asked for, not by turns that merely contain its letters', () => {
    const store = memory()
    // "art" is inside "party", "started", "heart", "smart", "apart": a substring match finds
    // them all; only t1 talks about art.
    const lookalikes = ['party', 'started', 'heart', 'smart', 'apart', 'departure', 'cart', 'artichoke']
    log(store, [
      ['Caroline', 'My art is abstract: I paint big canvases in blue.'],
      ...chatter(30),
      // Newer, naming Caroline too: with substrings for words these rank first.
      ...lookalikes.flatMap((w, i): Array<[string, string]> => [
        ['Melanie', `The ${w} thing was fun, said Caroline, ${i}.`],
        ['Caroline', `Yes, the ${w} one, Caroline agrees, ${i}.`],
      ]),
    ])
    expect(packed(store, 'What kind of art does Caroline make?', 140)).toContain('t1')
  })

  it('finds a turn by another form of the words asked for', () => {
    const store = memory()
    log(store, [
      ['Melanie', 'Back then I studied botany; my hobbies were mostly outdoors.'],
      ...chatter(40),
      ...Array.from({ length: 12 }, (_, i): [string, string] => ['Melanie', `Such a lovely sunny ${i} morning here.`]),
    ])
    // "studying" and "studied", "hobby" and "hobbies": one stem each, not one spelling.
    expect(packed(store, 'What hobby was Melanie studying?', 60)).toEqual(['t1'])
  })

  it('prefers what the named person said over what others said to them', () => {
    const store = memory()
    // The decoys name Caroline too: a plain keyword match ranks them first.
    answersThenDecoys(
      store,
      [['Caroline', 'My dog Biscuit learned to open the fridge.']],
      [
        ['Melanie', 'Caroline, my dog Rex chewed the sofa again.'],
        ['Melanie', 'Caroline, our dog Rex loves the beach.'],
      ],
      20,
    )
    // Room for one turn.
    expect(packed(store, 'What did Caroline say about her dog?', 60)).toEqual(['t1'])
  })

  it('fills a large budget with more of what it found than a small one needs', () => {
    const store = memory()
    const plants = ['roses', 'tulips', 'basil', 'ferns', 'lilies', 'mint']
    log(
      store,
      Array.from({ length: 240 }, (_, i): [string, string] => [
        i % 2 ? 'Melanie' : 'Caroline',
        `In the garden today: ${plants[i % plants.length]} number ${i}.`,
      ]),
    )
    const small = packed(store, 'What grows in the garden?', 800)
    const large = packed(store, 'What grows in the garden?', 8000)
    // Only what a pack may use is read and weighed, and that grows with the budget.
    expect(small.length).toBeGreaterThan(20)
    expect(large.length).toBeGreaterThan(120)
  })

  it('prefers the turn that tells over one that only asks about the same thing', () => {
    const store = memory()
    // The decoy is hers too, with the same words.
    answersThenDecoys(
      store,
      [['Melanie', 'I painted the lake at sunset, all in oils.']],
      [['Melanie', 'Have I painted the lake at sunset in oils?']],
      30,
    )
    // Room for one turn.
    expect(packed(store, 'What did Melanie paint at the lake?', 60)).toEqual(['t1'])
  })

  it('finds the turns that name members of the kind a question asks for', () => {
    const store = memory()
    answersThenDecoys(
      store,
      [
        ['Jon', 'Took a short trip last week to Rome to clear my mind a little.'],
        ['John', "I'm off to do some taekwondo!"],
      ],
      [
        ['Gina', 'Visited the new bakery, the cities guide says it is the best.'],
        ['Jon', 'Martial law in the movie we watched, and some arts and crafts.'],
      ],
    )
    // No word in common with the answers: WordNet knows Rome as a city, taekwondo as a martial art.
    expect(packed(store, 'Which cities has Jon visited?', 70)).toContain('t1')
    expect(packed(store, 'What martial arts has John done?', 70)).toContain('t2')
  })

  it('does not take a word for a member of a kind when that is not its first meaning', () => {
    const store = memory()
    // Reading is a city too, but first of all something people do.
    log(store, [['Jon', 'Took a short trip to Rome.'], ...chatter(30), ['Jon', 'Reading all day, a good book.']])
    const found = packed(store, 'Which cities has Jon visited?', 60)
    expect(found).toContain('t1')
    expect(found).not.toContain('t32')
  })

  it('finds the answer in the turn after the one that asked, though it shares no word with the question', () => {
    const store = memory()
    answersThenDecoys(
      store,
      [
        ['Gina', "Jon, what's your favorite style of dance?"],
        ['Jon', 'I love them all, but contemporary is my top pick. So expressive and powerful!'],
      ],
      Array.from({ length: 6 }, (_, i): [string, string] => [
        i % 2 ? 'Jon' : 'Gina',
        `The dance studio ${i} has a new style of flyer, my favorite.`,
      ]),
    )
    expect(packed(store, "What is Jon's favorite style of dance?", 160)).toContain('t2')
  })

  it('prefers the month the question names', () => {
    const store = memory()
    const october = Date.UTC(2023, 9, 12) / 1000
    log(store, [
      ['Caroline', 'I started a pottery class, it is so relaxing.', october],
      ...chatter(10),
      ['Caroline', 'Started the pottery class again today, relaxing as ever!', october + 40 * DAY],
      ['Caroline', 'The pottery class I started is relaxing.', october + 80 * DAY],
    ])
    // Room for one turn.
    expect(packed(store, 'What class did Caroline start in October 2023?', 60)).toEqual(['t1'])
  })

  it('finds what was told relatively of the day a question names, and writes that day beside it', () => {
    const store = memory()
    const sunday = Date.UTC(2023, 1, 19, 9) / 1000
    log(store, [
      ['Nadia', 'We went to the market on Friday the week before, nothing special.', sunday - 9 * DAY],
      ...chatter(12).map(([speaker, text], i): [string, string, number] => [speaker, text, sunday - 2 * DAY + i * 60]),
      ['Nadia', 'Two days ago I had my wisdom tooth pulled, my face is still puffy.', sunday],
      ...chatter(12).map(([speaker, text], i): [string, string, number] => [speaker, text, sunday + DAY + i * 60]),
    ])
    // Said on the 19th, it tells of the 17th; the turns said on the 17th tell of nothing.
    const question = 'What did Nadia do on Friday, 17 February 2023?'
    expect(packed(store, question, 80)).toContain('t14')
    expect(buildPack(store, { query: question, budget: 80, path: null }).text).toContain(
      'Two days ago (2023-02-17) I had my wisdom tooth pulled',
    )
  })

  it('finds memories written before the word index existed once the database is upgraded', () => {
    const file = join(tempDir(), 'memory_old.db')
    const { db } = openDatabase(file, { migrations: memoryMigrations.slice(0, 3), label: 'memory database' })
    db.prepare('INSERT INTO units (id, kind, created_at, updated_at) VALUES (1, 1, 0, 0)').run()
    db.prepare("INSERT INTO units_fts (rowid, text) VALUES (1, 'Caroline: I painted a sunrise.')").run()
    db.close()
    const store = openMemory(file)
    open.push(store)
    expect(store.prepare("SELECT rowid FROM units_words WHERE units_words MATCH 'paintings'").pluck().all()).toEqual([
      1,
    ])
  })
})

describe('reading a query', () => {
  it('keeps content words and marks names written capitalised', () => {
    expect(queryWords('What did Caroline say about the LGBTQ support group?')).toEqual({
      words: ['caroline', 'say', 'lgbtq', 'support', 'group'],
      names: new Set(['caroline', 'lgbtq']),
    })
    expect(queryWords("Who is Melanie's husband?").words).toEqual(['melanie', 'husband'])
    expect(queryWords('the and of what').words).toEqual([])
  })

  it('reads a named month and year, and takes "may" for a month only where it is one', () => {
    expect(queryTimeWindow('What setback did Melanie face in October 2023?')).toEqual({ month: 9, year: 2023 })
    expect(queryTimeWindow('Where did they go in May?')).toEqual({ month: 4, year: null })
    expect(queryTimeWindow('What did John do during 2022?')).toEqual({ month: null, year: 2022 })
    expect(queryTimeWindow('What may Caroline do next?')).toBeNull()
    expect(queryTimeWindow('How was the march for rights?')).toBeNull()
  })

  it('reads a named day, written out or relative to now', () => {
    const now = Date.UTC(2023, 4, 8, 12) / 1000
    const may = (d: number) => Date.UTC(2023, 4, d) / 1000
    expect(queryTimeWindow('What did Maria do on May 3, 2023?', now)?.days).toEqual({ from: may(3), to: may(4) })
    expect(queryTimeWindow('What did I tell you yesterday?', now)?.days).toEqual({ from: may(7), to: may(8) })
    // Beside a date written out, a relative day counts from it (3 May 2023 was a Wednesday).
    expect(queryTimeWindow('What did we do last weekend before May 3, 2023?', now)?.days).toEqual({
      from: Date.UTC(2023, 3, 29) / 1000,
      to: Date.UTC(2023, 4, 1) / 1000,
    })
    expect(queryTimeWindow('What did Mel do in the week before 9 May 2023?', now)?.days).toEqual({
      from: may(2),
      to: may(9),
    })
  })
})
