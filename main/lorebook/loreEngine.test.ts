import type { LoreBookSettings, LoreEntry } from '@shared/contract'
import { describe, expect, it } from 'vitest'
import { DEFAULT_BOOK_SETTINGS, newEntry } from './loreDefaults'
import { activateLore, compileLore, type EngineBook, type FiredRecord, type LoreInput } from './loreEngine'
import { seededRandom } from './seededRandom'

type E = Partial<Omit<LoreEntry, 'uid'>>

function book(entries: E[], settings: Partial<LoreBookSettings> = {}, id = 'b1'): EngineBook {
  return {
    id,
    name: `book ${id}`,
    settings: { ...DEFAULT_BOOK_SETTINGS, ...settings },
    entries: entries.map((e, i) => newEntry(i, { content: `content ${i}`, ...e })),
  }
}

function fire(books: EngineBook | EngineBook[], messages: string[], input: Partial<LoreInput> = {}) {
  const result = activateLore(compileLore([books].flat()), {
    messages,
    turn: 10,
    history: [],
    random: seededRandom('test'),
    ...input,
  })
  return { uids: result.fired.map((f) => f.entry.uid), result }
}

describe('keys', () => {
  it('a plain key fires its entry, case-insensitively by default, and says which key in which message', () => {
    const { uids, result } = fire(book([{ keys: ['dragon'] }, { keys: ['castle'] }]), ['I saw a DRAGON'])
    expect(uids).toEqual([0])
    expect(result.fired[0]!.reason).toEqual({ kind: 'key', key: 'dragon', message: 0 })
  })

  it('a case-sensitive key needs the same case (the entry, or the book for all its entries)', () => {
    expect(fire(book([{ keys: ['Rose'], case_sensitive: true }]), ['a rose']).uids).toEqual([])
    expect(fire(book([{ keys: ['Rose'], case_sensitive: true }]), ['Rose']).uids).toEqual([0])
    expect(fire(book([{ keys: ['Rose'] }], { case_sensitive: true }), ['a rose']).uids).toEqual([])
    expect(fire(book([{ keys: ['Rose'], case_sensitive: false }], { case_sensitive: true }), ['a rose']).uids).toEqual([
      0,
    ])
  })

  it('whole words: "cat" is not found in "concatenate", but is in "a cat."; Japanese keys match anywhere', () => {
    const b = book([
      { keys: ['cat'], match_whole_words: true },
      { keys: ['猫'], match_whole_words: true },
    ])
    expect(fire(b, ['concatenate']).uids).toEqual([])
    expect(fire(b, ['a cat.']).uids).toEqual([0])
    expect(fire(b, ['黒猫がいた']).uids).toEqual([1])
    expect(fire(book([{ keys: ['cat'] }]), ['concatenate']).uids).toEqual([0])
  })

  it('a /regex/flags key matches as a regular expression, with its own flags', () => {
    const b = book([{ keys: ['/dra+gon/i'] }, { keys: ['/^exact$/'] }])
    expect(fire(b, ['a DRAAAGON']).uids).toEqual([0])
    expect(fire(b, ['exact']).uids).toEqual([1])
    expect(fire(b, ['not exact']).uids).toEqual([])
  })

  it('a regex key that backtracks for ever is stopped and left out; the other keys, regex or plain, still fire', () => {
    // (a+)+$ against 40 a's and a b tries 2^40 ways: unbounded, the prompt would never be built.
    const hostile = '/(a+)+$/'
    const compiled = compileLore([book([{ keys: [hostile] }, { keys: ['/dra+gon/i'] }, { keys: ['castle'] }])])
    const input = { turn: 10, history: [], random: seededRandom('test') }
    const first = activateLore(compiled, { ...input, messages: [`${'a'.repeat(40)}b at the castle of the DRAAGON`] })
    expect(first.fired.map((f) => f.entry.uid)).toEqual([1, 2])
    expect(compiled.keys.slowKeys).toEqual([hostile])
    // Left out from then on, even where it would have matched at once.
    const next = activateLore(compiled, { ...input, messages: ['aaa', 'a dragon'] })
    expect(next.fired.map((f) => f.entry.uid)).toEqual([1])
  })

  it('overlapping keys of many entries are all found in one pass', () => {
    const b = book([{ keys: ['he'] }, { keys: ['she'] }, { keys: ['hers'] }, { keys: ['his'] }])
    expect(fire(b, ['ushers']).uids).toEqual([0, 1, 2])
  })

  it('a disabled entry never fires', () => {
    expect(
      fire(
        book([
          { keys: ['x'], enabled: false },
          { constant: true, enabled: false },
        ]),
        ['x'],
      ).uids,
    ).toEqual([])
  })
})

describe('secondary keys', () => {
  const b = (logic: LoreEntry['selective_logic']) =>
    book([{ keys: ['king'], secondary_keys: ['crown', 'throne'], selective_logic: logic }])
  it.each([
    ['and_any', ['the king', 'the king and his crown', 'king crown throne'], [false, true, true]],
    ['and_all', ['the king and his crown', 'king crown throne', 'king'], [false, true, false]],
    ['not_any', ['the king', 'the king and his crown', 'king crown throne'], [true, false, false]],
    ['not_all', ['the king', 'the king and his crown', 'king crown throne'], [true, true, false]],
  ] as const)('%s', (logic, texts, expected) => {
    expect(texts.map((t) => fire(b(logic), [t]).uids.length === 1)).toEqual(expected)
  })

  it('secondary keys alone fire nothing', () => {
    expect(fire(b('and_any'), ['crown and throne']).uids).toEqual([])
  })
})

describe('constant entries and scan depth', () => {
  it('a constant entry fires with no key', () => {
    const { result } = fire(book([{ constant: true }]), ['anything'])
    expect(result.fired[0]!.reason.kind).toBe('constant')
  })

  it('a key older than the scan depth is not seen; an entry may scan deeper than its book', () => {
    const messages = ['now', 'one back', 'two back: dragon']
    expect(fire(book([{ keys: ['dragon'] }], { scan_depth: 2 }), messages).uids).toEqual([])
    expect(fire(book([{ keys: ['dragon'] }], { scan_depth: 3 }), messages).uids).toEqual([0])
    const deep = fire(book([{ keys: ['dragon'], scan_depth: 5 }], { scan_depth: 1 }), messages)
    expect(deep.result.fired[0]!.reason).toEqual({ kind: 'key', key: 'dragon', message: 2 })
  })
})

describe('recursion', () => {
  const chain: E[] = [
    { keys: ['sword'], content: 'The sword was forged by the smith.' },
    { keys: ['smith'], content: 'The smith lives in the mountain.' },
    { keys: ['mountain'], content: 'The mountain is cold.' },
  ]

  it('a fired entry’s text fires further entries, up to the book’s recursion limit', () => {
    expect(fire(book(chain, { max_recursion: 3 }), ['my sword']).uids).toEqual([0, 1, 2])
    expect(fire(book(chain, { max_recursion: 1 }), ['my sword']).uids).toEqual([0, 1])
    expect(fire(book(chain, { recursive: false }), ['my sword']).uids).toEqual([0])
    const r = fire(book(chain), ['my sword']).result.fired[1]!
    expect(r.reason).toEqual({ kind: 'recursion', key: 'smith', message: null })
  })

  it('prevent_recursion, exclude_recursion and delay_until_recursion', () => {
    expect(fire(book([{ ...chain[0], prevent_recursion: true }, chain[1]!]), ['sword']).uids).toEqual([0])
    expect(fire(book([chain[0]!, { ...chain[1], exclude_recursion: true }]), ['sword']).uids).toEqual([0])
    expect(fire(book([chain[0]!, { ...chain[1], exclude_recursion: true }]), ['smith']).uids).toEqual([1])
    const delayed = book([chain[0]!, { ...chain[1], delay_until_recursion: true }])
    expect(fire(delayed, ['smith']).uids).toEqual([])
    expect(fire(delayed, ['sword']).uids).toEqual([0, 1])
  })
})

describe('token budget', () => {
  const long = 'word '.repeat(40) // ~40 tokens
  it('the book’s budget keeps the highest order first and drops the rest; ignore_budget always goes in', () => {
    const b = book(
      [
        { keys: ['a'], order: 10, content: long },
        { keys: ['a'], order: 30, content: long },
        { keys: ['a'], order: 20, content: long },
        { keys: ['a'], order: 1, content: long, ignore_budget: true },
      ],
      { token_budget: 90 },
    )
    const { uids, result } = fire(b, ['a'])
    expect(uids.sort()).toEqual([1, 2, 3])
    expect(result.over_budget.map((f) => f.entry.uid)).toEqual([0])
  })

  it('fired entries come out by position, then order', () => {
    const b = book([
      { constant: true, position: 'at_depth', order: 1 },
      { constant: true, position: 'after_persona', order: 5 },
      { constant: true, position: 'after_persona', order: 2 },
      { constant: true, position: 'before_persona', order: 9 },
    ])
    expect(fire(b, ['x']).uids).toEqual([3, 2, 1, 0])
  })
})

describe('probability', () => {
  it('a roll of the seeded random decides, the same for the same seed', () => {
    const b = book([{ keys: ['x'], probability: 50 }])
    const outcomes = Array.from(
      { length: 200 },
      (_, i) => fire(b, ['x'], { random: seededRandom(`s${i}`) }).uids.length,
    )
    const fired = outcomes.reduce((a, n) => a + n, 0)
    expect(fired).toBeGreaterThan(60)
    expect(fired).toBeLessThan(140)
    expect(fire(b, ['x'], { random: seededRandom('s7') }).uids).toEqual(
      fire(b, ['x'], { random: seededRandom('s7') }).uids,
    )
    expect(fire(b, ['x'], { random: () => 0.49 }).uids).toEqual([0])
    expect(fire(b, ['x'], { random: () => 0.5 }).uids).toEqual([])
    expect(
      fire(book([{ keys: ['x'], probability: 0, use_probability: false }]), ['x'], { random: () => 0.99 }).uids,
    ).toEqual([0])
  })
})

describe('inclusion groups', () => {
  it('only one entry of a group fires, drawn by weight', () => {
    const b = book([
      { keys: ['x'], group: 'weather', group_weight: 1 },
      { keys: ['x'], group: 'weather', group_weight: 3 },
      { keys: ['x'] },
    ])
    expect(fire(b, ['x'], { random: () => 0.1 }).uids).toEqual([0, 2])
    expect(fire(b, ['x'], { random: () => 0.5 }).uids).toEqual([1, 2])
  })

  it('an override entry wins its group by order; group scoring prefers the most matched keys', () => {
    const b = book([
      { keys: ['x'], group: 'g', group_override: true, order: 5 },
      { keys: ['x'], group: 'g', group_override: true, order: 9 },
      { keys: ['x'], group: 'g', group_weight: 1000 },
    ])
    expect(fire(b, ['x']).uids).toEqual([1])
    const scored = book([
      { keys: ['x'], group: 'g', use_group_scoring: true, group_weight: 1000 },
      { keys: ['x', 'y'], group: 'g', use_group_scoring: true, group_weight: 1 },
    ])
    expect(fire(scored, ['x y'], { random: () => 0 }).uids).toEqual([1])
  })
})

describe('sticky, cooldown and delay', () => {
  const rec = (uid: number, kind: FiredRecord['kind'] = 'key'): FiredRecord => ({ book_id: 'b1', uid, kind })

  it('a sticky entry stays fired for its turns without its key, then stops', () => {
    const b = book([{ keys: ['storm'], sticky: 2 }])
    expect(fire(b, ['calm'], { history: [[rec(0)]] }).result.fired[0]!.reason.kind).toBe('sticky')
    expect(fire(b, ['calm'], { history: [[rec(0, 'sticky')], [rec(0)]] }).uids).toEqual([0])
    expect(fire(b, ['calm'], { history: [[rec(0, 'sticky')], [rec(0, 'sticky')], [rec(0)]] }).uids).toEqual([])
  })

  it('a cooldown holds an entry off for its turns after it fired, even with its key', () => {
    const b = book([{ keys: ['storm'], cooldown: 2 }])
    expect(fire(b, ['storm'], { history: [[rec(0)]] }).uids).toEqual([])
    expect(fire(b, ['storm'], { history: [[], [rec(0)]] }).uids).toEqual([])
    expect(fire(b, ['storm'], { history: [[], [], [rec(0)]] }).uids).toEqual([0])
  })

  it('cooldown begins when stickiness ends', () => {
    const b = book([{ keys: ['storm'], sticky: 1, cooldown: 1 }])
    expect(fire(b, ['storm'], { history: [[rec(0, 'sticky')], [rec(0)]] }).uids).toEqual([])
    expect(fire(b, ['storm'], { history: [[], [rec(0, 'sticky')], [rec(0)]] }).uids).toEqual([0])
  })

  it('a delayed entry waits until the conversation has that many turns', () => {
    const b = book([{ keys: ['storm'], delay: 3 }])
    expect(fire(b, ['storm'], { turn: 2 }).uids).toEqual([])
    expect(fire(b, ['storm'], { turn: 3 }).uids).toEqual([0])
  })

  it('a sticky entry wins its inclusion group', () => {
    const b = book([
      { keys: ['a'], group: 'g', group_weight: 1000 },
      { keys: ['b'], group: 'g', group_weight: 1, sticky: 3 },
    ])
    expect(fire(b, ['a'], { history: [[rec(1)]], random: () => 0 }).uids).toEqual([1])
  })
})

describe('several books', () => {
  it('each book keeps its own budget, and records of another book do not hold an entry off', () => {
    const one = book([{ keys: ['x'], cooldown: 5 }], {}, 'one')
    const two = book([{ keys: ['x'], cooldown: 5 }], {}, 'two')
    const { result } = fire([one, two], ['x'], { history: [[{ book_id: 'one', uid: 0, kind: 'key' }]] })
    expect(result.fired.map((f) => f.book_id)).toEqual(['two'])
  })
})

describe("SillyTavern's character filter (kept in extra.characterFilter)", () => {
  const filtered = (names: string[], isExclude = false, tags: string[] = []) =>
    book([{ keys: ['dragon'], extra: { characterFilter: { names, tags, isExclude } } }, { constant: true }])

  it('an entry limited to some personas fires only for them; excluding them, never for them', () => {
    expect(fire(filtered(['Seraphina']), ['a dragon'], { character: 'Seraphina' }).uids).toEqual([0, 1])
    expect(fire(filtered(['Seraphina']), ['a dragon'], { character: 'Mira' }).uids).toEqual([1])
    expect(fire(filtered(['Seraphina']), ['a dragon'], { character: null }).uids).toEqual([1])
    expect(fire(filtered(['Seraphina'], true), ['a dragon'], { character: 'Seraphina' }).uids).toEqual([1])
    expect(fire(filtered(['Seraphina'], true), ['a dragon'], { character: 'Mira' }).uids).toEqual([0, 1])
  })

  it('holds for constant and sticky entries too, and an empty filter limits nothing', () => {
    const constant = book([{ constant: true, extra: { characterFilter: { names: ['Seraphina'], isExclude: false } } }])
    expect(fire(constant, ['hello'], { character: 'Mira' }).uids).toEqual([])
    const sticky = book([{ keys: ['dragon'], sticky: 3, extra: { characterFilter: { names: ['Seraphina'] } } }])
    const history: FiredRecord[][] = [[{ book_id: 'b1', uid: 0, kind: 'key' }]]
    expect(fire(sticky, ['nothing'], { character: 'Seraphina', history }).uids).toEqual([0])
    expect(fire(sticky, ['nothing'], { character: 'Mira', history }).uids).toEqual([])
    expect(fire(filtered([]), ['a dragon'], { character: 'Mira' }).uids).toEqual([0, 1])
  })

  it('reads tags as SillyTavern does for a character without tags: filtering to tags keeps it out, excluding lets it be', () => {
    expect(fire(filtered([], false, ['fantasy']), ['a dragon'], { character: 'Mira' }).uids).toEqual([1])
    expect(fire(filtered([], true, ['fantasy']), ['a dragon'], { character: 'Mira' }).uids).toEqual([0, 1])
  })
})

describe('positions 5–7', () => {
  it('orders fired entries by SillyTavern position: example-dialogue and outlet entries after the others', () => {
    const b = book([
      { constant: true, position: 'outlet' },
      { constant: true, position: 'em_bottom' },
      { constant: true, position: 'em_top' },
      { constant: true, position: 'after_persona' },
    ])
    const { result } = fire(b, ['x'])
    expect(result.fired.map((f) => f.entry.position)).toEqual(['after_persona', 'em_top', 'em_bottom', 'outlet'])
  })
})
