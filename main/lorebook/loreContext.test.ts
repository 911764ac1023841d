import type { LoreEntry } from '@shared/contract'
import { describe, expect, it } from 'vitest'
import { DEFAULT_BOOK_SETTINGS, newEntry } from './loreDefaults'
import { compileLore, type EngineBook } from './loreEngine'
import { loreContext } from './loreContext'
import { DEFAULT_NOTE, type LorebookService } from './lorebookService'
import { fromStEntry } from './formats/sillyTavern'

// Where SillyTavern's positions 5–7 put an entry's text, read through the context a prompt gets.

function books(entries: Partial<LoreEntry>[], note = DEFAULT_NOTE): LorebookService {
  const book: EngineBook = {
    id: 'b1',
    name: 'Book',
    settings: DEFAULT_BOOK_SETTINGS,
    entries: entries.map((e, i) => newEntry(i, { constant: true, ...e })),
  }
  // Only what loreContext reads of the service.
  return {
    note: () => ({ ...note, from: 'own' as const }),
    booksFor: () => [book],
    compile: (b: readonly EngineBook[]) => compileLore(b),
    firedAt: (ids: readonly string[]) => ids.map(() => []),
  } as unknown as LorebookService
}

const context = (service: LorebookService, char = 'Seraphina') =>
  loreContext(service, {
    scope: { personaId: null, flowId: 'f' },
    branch: () => ({ messages: ['hello'], ancestors: [], turn: 0 }),
    seed: 's',
    names: { char, user: 'Mina', now: new Date(0) },
  })

describe('positions 5–7 in the context', () => {
  it('puts example-dialogue entries after the persona text, after the ↓Char entries, top before bottom', () => {
    const { inserts } = context(
      books([
        { content: 'EM bottom', position: 'em_bottom' },
        { content: 'EM top', position: 'em_top' },
        { content: 'after', position: 'after_persona' },
        { content: 'before', position: 'before_persona' },
      ]),
    )
    expect(inserts.map((i) => [i.place, i.text])).toEqual([
      ['before_system', 'before'],
      ['after_system', 'after'],
      ['after_system', 'EM top'],
      ['after_system', 'EM bottom'],
    ])
  })

  it('an outlet entry goes only where a text writes {{outlet::name}}, joined with the others of its name', () => {
    const service = books(
      [
        { content: 'The sky of {{char}}.', position: 'outlet', extra: { outletName: 'sky' } },
        { content: 'Two moons.', position: 'outlet', extra: { outletName: 'sky' } },
        { content: 'Weather: {{outlet::sky}} Ground: {{outlet::ground}}.', position: 'after_persona' },
      ],
      { ...DEFAULT_NOTE, text: 'Note {{outlet::sky}}' },
    )
    const { inserts, outlets } = context(service)
    expect(outlets.get('sky')).toBe('The sky of Seraphina.\nTwo moons.')
    expect(inserts.map((i) => i.text)).toEqual([
      'Weather: The sky of Seraphina.\nTwo moons. Ground: .',
      'Note The sky of Seraphina.\nTwo moons.',
    ])
  })

  it('reads SillyTavern positions 5, 6 and 7 (with the outlet name) and writes them back as they were', () => {
    const at = (position: number, more: Record<string, unknown> = {}) =>
      fromStEntry({ key: ['k'], content: 'c', position, ...more }, 0, 'entries.0')
    expect(at(5).position).toBe('em_top')
    expect(at(6).position).toBe('em_bottom')
    const outlet = at(7, { outletName: 'sky' })
    expect(outlet).toMatchObject({ position: 'outlet', extra: { outletName: 'sky' } })
  })

  it('keeps a character-filtered entry out for another persona', () => {
    const service = books([
      { content: 'only hers', extra: { characterFilter: { names: ['Seraphina'], tags: [], isExclude: false } } },
    ])
    expect(context(service, 'Seraphina').inserts.map((i) => i.text)).toEqual(['only hers'])
    expect(context(service, 'Mira').inserts).toEqual([])
  })
})
