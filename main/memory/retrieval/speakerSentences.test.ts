import { describe, expect, it } from 'vitest'
import { sentencesOf } from '../jobs/embedJob'
import { askedWords, trimmedToAsked } from '../pack/trimLine'
import { speakerSentences } from './speakerSentences'

describe('one sentence splitter for embedding and packing', () => {
  const turn = 'Melanie: Look at this one! [shares a photo: a dog asleep on a beach towel] He slept there all afternoon.'

  it('ends a sentence after a photo caption, as well as after . ! ?', () => {
    expect(speakerSentences(turn)).toEqual({
      head: 'Melanie: ',
      speaker: 'Melanie',
      sentences: ['Look at this one!', '[shares a photo: a dog asleep on a beach towel]', 'He slept there all afternoon.'],
    })
    expect(speakerSentences('no speaker here. Two parts.').speaker).toBeNull()
  })

  it('gives the embedding model and the pack the same sentences', () => {
    expect(sentencesOf(turn)).toEqual([
      'Melanie: Look at this one!',
      'Melanie: [shares a photo: a dog asleep on a beach towel]',
      'Melanie: He slept there all afternoon.',
    ])
    expect(trimmedToAsked(turn, askedWords('What did the dog do all afternoon?'))).toBe(
      'Melanie: [shares a photo: a dog asleep on a beach towel] … He slept there all afternoon.',
    )
  })
})
