import { describe, expect, it } from 'vitest'
import { DensePartition } from './signPartition'

function unit(v: number[]): Float32Array {
  const n = Math.hypot(...v)
  return Float32Array.from(v, (x) => x / n)
}

describe("the model index's partition", () => {
  it('reads only the rows within reach of the newest id, so an old unit is left to the words', () => {
    const part = new DensePartition(4)
    const query = unit([1, 0.2, 0, 0])
    part.put(1, query) // the best match, but the oldest
    for (let id = 2; id <= 10; id++) part.put(id, unit([1, 0.2 * id, 0.1 * id, -0.1]))
    expect(part.nearest(query, 3, 200)[0]!.id).toBe(1)
    const near = part.nearest(query, 3, 200, 5).map((r) => r.id)
    expect(near).toHaveLength(3)
    expect(near.every((id) => id > 5)).toBe(true)
  })
})
