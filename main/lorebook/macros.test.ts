import { describe, expect, it } from 'vitest'
import { expandMacros } from './macros'
import { seededRandom } from './seededRandom'

const scope = { char: 'Mira', user: 'Ken', now: new Date(2026, 0, 2, 15, 4), random: seededRandom('s') }

describe('macros', () => {
  it('names the persona and the user, in any case, and the old <BOT>/<USER> forms', () => {
    expect(expandMacros('{{char}} greets {{User}}. <BOT> and <USER>.', scope)).toBe('Mira greets Ken. Mira and Ken.')
  })

  it('tells the time and date', () => {
    expect(expandMacros('{{time}} on {{date}}', scope)).toBe('3:04 PM on January 2, 2026')
  })

  it('picks one of the choices, the same one for the same seed, and every choice for some seed', () => {
    const text = 'It is {{random:rainy, sunny,windy}}.'
    expect(expandMacros(text, scope)).toBe(expandMacros(text, scope))
    const seen = new Set(
      Array.from({ length: 60 }, (_, i) => expandMacros(text, { ...scope, random: seededRandom(`${i}`) })),
    )
    expect(seen).toEqual(new Set(['It is rainy.', 'It is sunny.', 'It is windy.']))
    expect(['a, b', 'c']).toContain(expandMacros('{{random::a, b::c}}', scope))
  })

  it('leaves what it does not know as written', () => {
    expect(expandMacros('{{unknown}} {{random:}} <b>', scope)).toBe('{{unknown}} {{random:}} <b>')
  })
})
