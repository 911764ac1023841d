import { describe, expect, it } from 'vitest'
import * as contract from '.'

describe('the contract', () => {
  it('names every method once across the domains (a spread would silently keep only the last)', () => {
    const parts = Object.entries(contract)
      .filter(([name]) => name.endsWith('Methods'))
      .map(([, part]) => part as Record<string, unknown>)
    expect(parts.length).toBeGreaterThanOrEqual(10)
    const names = parts.flatMap((p) => Object.keys(p))
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
    // Every domain's method is in the one contract the router serves.
    expect(Object.keys(contract.contract).sort()).toEqual([...new Set(names)].sort())
  })
})
