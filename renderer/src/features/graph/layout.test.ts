import { describe, expect, it } from 'vitest'
import { NODE_HEIGHT, NODE_WIDTH, layeredLayout, layoutSpacing } from './layout'

describe('layered layout', () => {
  it('puts each node below its deepest parent and keeps the main line straight', () => {
    const laid = layeredLayout({
      nodes: ['a', 'b', 'c', 'd'],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'd' },
        { from: 'c', to: 'd' },
      ],
    })
    expect(laid.a!.y).toBe(0)
    expect(laid.b!.x).toBe(laid.a!.x)
    expect(laid.c!.y).toBe(laid.b!.y)
    expect(laid.c!.x).toBeGreaterThanOrEqual(laid.b!.x + NODE_WIDTH) // siblings never overlap
    expect(laid.d!.y).toBeGreaterThan(laid.c!.y) // a merge sits below both parents
  })

  it('makes a row as tall as its tallest (expanded) card, so the row below starts under it', () => {
    const laid = layeredLayout({
      nodes: ['a', 'b', 'c', 'd'],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'a', to: 'c' },
        { from: 'b', to: 'd' },
      ],
      heights: { c: 900 },
    })
    expect(laid.b!.y).toBe(laid.c!.y)
    expect(laid.d!.y).toBeGreaterThan(laid.c!.y + 900) // clear of the expanded card above it
    expect(laid.b!.y).toBe(NODE_HEIGHT + layoutSpacing.GAP_Y) // a normal row keeps its usual place
  })

  it('lays out a 50,000-node chain without recursion', () => {
    const nodes = Array.from({ length: 50_000 }, (_, i) => `n${i}`)
    const edges = nodes.slice(1).map((to, i) => ({ from: nodes[i]!, to }))
    const laid = layeredLayout({ nodes, edges })
    expect(laid['n49999']!.y).toBeGreaterThan(laid['n0']!.y + 49_998 * NODE_HEIGHT)
  })
})
