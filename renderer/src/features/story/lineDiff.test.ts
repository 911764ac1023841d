import { describe, expect, it } from 'vitest'
import { lineDiff } from './lineDiff'

describe('a character sheet’s change as lines', () => {
  it('keeps what stayed and shows what went and what came, in reading order', () => {
    const before = '# Mira\n\n## State\nHiding at the inn.\n## Speech\nShort.'
    const after = '# Mira\n\n## State\nTravelling with Rowan.\n## Speech\nShort.'
    expect(lineDiff(before, after)).toEqual([
      { kind: 'same', text: '# Mira' },
      { kind: 'same', text: '' },
      { kind: 'same', text: '## State' },
      { kind: 'removed', text: 'Hiding at the inn.' },
      { kind: 'added', text: 'Travelling with Rowan.' },
      { kind: 'same', text: '## Speech' },
      { kind: 'same', text: 'Short.' },
    ])
  })

  it('shows a new sheet as all added', () => {
    expect(
      lineDiff('', '# Kai\nPolite.')
        .filter((l) => l.kind === 'added')
        .map((l) => l.text),
    ).toEqual(['# Kai', 'Polite.'])
  })
})
