import { describe, expect, it } from 'vitest'
import { otherVerbForms, pastOf } from './irregularVerbs'
import { SENTENCE_MODEL } from './sentenceModel'
import { modelQueryText, statementForm, verbForms } from './statementForm'

describe('a question read as the statement that would answer it', () => {
  it('puts the verb after "did" in the past, after its subject', () => {
    expect(statementForm('When did Caroline go to the LGBTQ support group?')).toBe(
      'Caroline went to the LGBTQ support group',
    )
    expect(statementForm('What did Melanie paint recently?')).toBe('Melanie painted recently')
    expect(statementForm('Did Nadia try fencing?')).toBe('Nadia tried fencing')
    expect(statementForm('When did Caroline have a picnic?')).toBe('Caroline had a picnic')
  })

  it('moves another auxiliary after the subject, and after a possessive subject to the end', () => {
    expect(statementForm('Would Caroline pursue writing as a career option?')).toBe(
      'Caroline would pursue writing as a career option',
    )
    expect(statementForm('How long has Nate had his first two turtles?')).toBe('Nate has had his first two turtles long')
    expect(statementForm("What is Caroline's relationship status?")).toBe("Caroline's relationship status is")
  })

  it('keeps what the question word asks about, and drops "do"', () => {
    expect(statementForm('What activities does Melanie partake in?')).toBe('Melanie partake in activities')
    expect(statementForm('What books has Melanie read?')).toBe('Melanie has read books')
  })

  it('leaves alone what does not read as a question about someone', () => {
    for (const text of ['I went to the lake yesterday.', 'what about tea?', 'お元気ですか？', ''])
      expect(statementForm(text)).toBe(text)
  })

  it('gives only the built-in sentence model the statement; a provider gets the query as asked', () => {
    const q = 'When did Jon go to Rome?'
    expect(modelQueryText(SENTENCE_MODEL, q)).toBe('Jon went to Rome')
    expect(modelQueryText('openai:text-embedding-3-small', q)).toBe(q)
  })
})

describe("irregular verbs' other forms", () => {
  it('joins a base form, its past and its participle, both ways', () => {
    expect(otherVerbForms('go')).toEqual(['went', 'gone'])
    expect(otherVerbForms('Bought')).toEqual(['buy'])
    expect(otherVerbForms('visit')).toEqual([])
    expect(verbForms('When did she buy the car and go home?')).toEqual(['bought', 'went', 'gone'])
  })

  it('spells a regular past by the rules', () => {
    expect([pastOf('paint'), pastOf('move'), pastOf('try'), pastOf('play'), pastOf('meet')]).toEqual([
      'painted',
      'moved',
      'tried',
      'played',
      'met',
    ])
  })
})
