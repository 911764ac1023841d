import { describe, expect, it } from 'vitest'
import { mentionAt, nextSpeaker, type CastMember, type SpeakerInput } from './groupTurns'

const names: Record<string, string> = { a: 'Alice Moreau', b: 'Bob', m: 'ミカ', k: '山田 花子' }
const cast: CastMember[] = ['a', 'b', 'm'].map((persona_id) => ({ persona_id, muted: false }))

function speaker(over: Partial<SpeakerInput>): string | null {
  return nextSpeaker({ cast, order: 'addressed', nameOf: (id) => names[id], prompt: '', lastSpeaker: null, ...over })
}

describe('who speaks next in a group scene', () => {
  it('goes round the cast in its order after the last speaker (round robin)', () => {
    const order = 'round_robin'
    expect(speaker({ order, prompt: 'Hello', lastSpeaker: null })).toBe('a')
    expect(speaker({ order, prompt: 'Hello', lastSpeaker: 'a' })).toBe('b')
    expect(speaker({ order, prompt: 'Hello', lastSpeaker: 'm' })).toBe('a')
    // A name in the prompt does not change whose turn it is in this order.
    expect(speaker({ order, prompt: 'Bob, hello', lastSpeaker: 'b' })).toBe('m')
  })

  it('gives the turn to the member the prompt names, English or Japanese, else goes round', () => {
    expect(speaker({ prompt: 'What do you think, bob?', lastSpeaker: 'b' })).toBe('b')
    expect(speaker({ prompt: 'Alice, and then Bob', lastSpeaker: 'a' })).toBe('a')
    expect(speaker({ prompt: 'Bob first, then Alice', lastSpeaker: 'a' })).toBe('b')
    expect(speaker({ prompt: 'Moreau, a word?', lastSpeaker: null })).toBe('a') // a word of the name
    expect(speaker({ prompt: 'ミカさん、どう思う？', lastSpeaker: 'a' })).toBe('m')
    expect(speaker({ prompt: 'Nobody named', lastSpeaker: 'a' })).toBe('b')
  })

  it('finds a name only as a word in spaced scripts, anywhere in Japanese', () => {
    expect(mentionAt('Bobby was here', 'Bob')).toBe(-1)
    expect(mentionAt('Ask bob.', 'Bob')).toBe(4)
    expect(mentionAt('花子は来る？', '山田 花子')).toBe(0)
    expect(mentionAt('今日は山田さんと', '山田 花子')).toBe(3)
    expect(mentionAt('Al is here', 'Al')).toBe(0)
    expect(mentionAt('Also here', 'Al')).toBe(-1)
  })

  it('with no prompt, hands the turn to whom the last reply names, never back to its speaker', () => {
    expect(speaker({ prompt: '', lastSpeaker: 'a', lastReply: 'Bob, your turn.' })).toBe('b')
    expect(speaker({ prompt: '', lastSpeaker: 'a', lastReply: 'As I, Alice, said…' })).toBe('b')
  })

  it('never chooses a muted member by order or by name, but one picked by hand speaks', () => {
    const muted = cast.map((m) => ({ ...m, muted: m.persona_id === 'b' }))
    expect(speaker({ cast: muted, prompt: 'Bob?', lastSpeaker: 'a' })).toBe('m')
    expect(speaker({ cast: muted, order: 'round_robin', prompt: 'hi', lastSpeaker: 'a' })).toBe('m')
    expect(speaker({ cast: muted, prompt: 'hi', picked: 'b' })).toBe('b')
    expect(speaker({ cast: cast.map((m) => ({ ...m, muted: true })), prompt: 'hi' })).toBeNull()
  })

  it('passes over a member whose persona is gone', () => {
    const gone = [...cast.slice(0, 1), { persona_id: 'deleted', muted: false }, ...cast.slice(1)]
    expect(speaker({ cast: gone, order: 'round_robin', prompt: 'hi', lastSpeaker: 'a' })).toBe('b')
  })

  it('manual order takes the pick; with none it goes round; a pick not in the cast is ignored', () => {
    expect(speaker({ order: 'manual', prompt: 'Bob?', picked: 'm', lastSpeaker: 'a' })).toBe('m')
    expect(speaker({ order: 'manual', prompt: 'Bob?', lastSpeaker: 'a' })).toBe('b')
    expect(speaker({ order: 'manual', prompt: 'hi', picked: 'zz', lastSpeaker: 'b' })).toBe('m')
  })
})
