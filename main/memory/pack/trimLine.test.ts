import { describe, expect, it } from 'vitest'
import { askedWords, trimmedToAsked } from './trimLine'

describe('a long turn packed for a query', () => {
  const turn =
    "Melanie: Thanks, Caroline! The kids are doing great. I finally signed up for a pottery class yesterday. How's the adoption going?"

  it('keeps only the sentences holding what was asked, speaker first', () => {
    expect(trimmedToAsked(turn, askedWords('What class did Melanie sign up for?'))).toBe(
      'Melanie: I finally signed up for a pottery class yesterday.',
    )
  })

  it('keeps a name alone no sentence: the partner is greeted by name in nearly every turn', () => {
    expect(trimmedToAsked(turn, askedWords('What did Melanie say to Caroline about the kids?'))).toBe(
      'Melanie: The kids are doing great.',
    )
  })

  it('stays whole when no sentence holds an asked word (found by meaning) or every one does', () => {
    expect(trimmedToAsked(turn, askedWords('What hobby is Melanie into?'))).toBe(turn)
    expect(trimmedToAsked('Jon: Dance is my life. I dance daily!', askedWords('How often does Jon dance?'))).toBe(
      'Jon: Dance is my life. I dance daily!',
    )
  })
})
