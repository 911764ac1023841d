import { describe, expect, it } from 'vitest'
import { isMember, kindsAsked, nounLemmas } from './nounKinds'
import { queryWords } from './queryWords'

// WordNet read in place (binary search of index.noun, synsets at their offsets in data.noun).

const asked = (query: string) => {
  const { words, names } = queryWords(query)
  return kindsAsked(words, names)
}

describe('kinds a question asks for', () => {
  it('reads plural nouns as WordNet has them', () => {
    expect(nounLemmas('cities')).toEqual(['city'])
    expect(nounLemmas('boxes')).toContain('box')
    expect(nounLemmas('women')).toContain('woman')
    expect(nounLemmas('glorbs')).toEqual([])
  })

  it('finds members below a kind, instances included, in their first sense only', () => {
    const cities = asked('Which cities has Jon visited?')
    expect(cities.map((k) => k.lemma)).toEqual(['city'])
    for (const city of ['rome', 'paris', 'tokyo']) expect(isMember(city, cities)).toBe(true)
    // Reading is a city in England, but first of all an activity.
    expect(cities[0]!.words).toContain('reading')
    expect(isMember('reading', cities)).toBe(false)
    expect(isMember('banana', cities)).toBe(false)
  })

  it('takes two words WordNet knows as one noun as that kind, not each word', () => {
    const kinds = asked('What martial arts has John done?')
    expect(kinds.map((k) => k.lemma)).toEqual(['martial_art'])
    expect(isMember('taekwondo', kinds)).toBe(true)
    expect(isMember('painting', kinds)).toBe(false)
    // Capitalised as a name, "European" still starts the pair.
    const countries = asked('What European countries has Maria been to?')
    expect(countries.map((k) => k.lemma)).toEqual(['european_country'])
    expect(isMember('spain', countries)).toBe(true)
    expect(isMember('japan', countries)).toBe(false)
  })

  it('asks nothing of names, words WordNet does not know, or nouns with nothing below them', () => {
    expect(asked('What did Caroline say?')).toEqual([])
    expect(asked('xyzzy quux')).toEqual([])
    expect(kindsAsked(['taekwondo'], new Set())).toEqual([])
  })

  it('finds the first and the last lemma of the index', () => {
    expect(nounLemmas("'hood")).toEqual(["'hood"])
    expect(nounLemmas('zyrian')).toEqual(['zyrian'])
  })
})
