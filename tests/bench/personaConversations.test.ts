import { describe, expect, it } from 'vitest'
import { personaConversations } from '../../bench/memory/personaConversations'

// The synthetic development set must be the same for its seed everywhere (a figure on it is
// compared across runs and machines), and its gold evidence must point at the planted turns.

describe('the synthetic persona conversations', () => {
  const set = personaConversations()

  it('is the same for a seed, and another seed makes another set', () => {
    expect(personaConversations()).toEqual(set)
    expect(personaConversations(1)[0]!.lines).not.toEqual(set[0]!.lines)
  })

  it('is long and dated: dozens of sessions, in time order', () => {
    for (const c of set) {
      expect(new Set(c.turns.map((t) => t.id.split(':')[0])).size).toBe(40)
      expect(c.turns.length).toBeGreaterThan(400)
      const times = c.turns.map((t) => t.at)
      expect(times).toEqual([...times].sort((a, b) => a - b))
    }
  })

  it("has each question's evidence among its turns, told by the user, never as a question", () => {
    for (const c of set) {
      const byId = new Map(c.turns.map((t) => [t.id, t]))
      const user = c.turns[0]!.speaker
      expect(c.questions.length).toBeGreaterThanOrEqual(14)
      for (const q of c.questions) {
        expect(q.evidence.length).toBeGreaterThan(0)
        for (const id of q.evidence) {
          expect(byId.get(id)?.speaker).toBe(user)
          expect(byId.get(id)?.text).not.toContain('?')
        }
      }
    }
  })

  it('asks in other words than it tells: most evidence shares no word of 6+ letters with its question', () => {
    const long = (text: string) => new Set(text.toLowerCase().match(/[a-z]{6,}/g) ?? [])
    let disjoint = 0
    let all = 0
    for (const c of set)
      for (const q of c.questions)
        for (const id of q.evidence) {
          const told = long(c.turns.find((t) => t.id === id)!.text)
          all++
          if (![...long(q.question)].some((w) => told.has(w))) disjoint++
        }
    // Most evidence shares no long word with its question: what words alone cannot find.
    expect(disjoint / all).toBeGreaterThan(0.5)
  })
})
