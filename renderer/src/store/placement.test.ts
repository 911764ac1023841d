import { describe, expect, it } from 'vitest'
import type { Flow } from '@shared/contract'
import { NODE_HEIGHT, NODE_WIDTH, placeChild } from './placement'

describe('placing a new child', () => {
  const flow = (connections: Array<[string, string]>) =>
    ({ connections: connections.map(([from, to]) => ({ from, to })) }) as Flow

  it('goes below its parent, right of siblings already there', () => {
    const positions = { p: { x: 0, y: 0 }, s: { x: 0, y: NODE_HEIGHT + 70 } }
    const at = placeChild(flow([['p', 's']]), positions, ['p'])
    expect(at.y).toBe(positions.s.y)
    expect(at.x).toBeGreaterThanOrEqual(NODE_WIDTH)
  })

  it('starts a new root to the right of everything', () => {
    const at = placeChild(flow([]), { a: { x: 500, y: 0 } }, [])
    expect(at).toEqual({ x: 500 + NODE_WIDTH + 80, y: 0 })
  })
})
