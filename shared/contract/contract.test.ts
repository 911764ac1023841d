import { describe, expect, it } from 'vitest'
import {
  appMethods,
  chatMethods,
  graphMethods,
  interopMethods,
  llmMethods,
  memoryMethods,
  personaMethods,
  providerMethods,
  settingsMethods,
  worldMethods,
} from '.'

describe('the contract', () => {
  it('names every method once across the domains (a spread would silently keep only the last)', () => {
    const parts = [
      appMethods,
      chatMethods,
      graphMethods,
      interopMethods,
      llmMethods,
      memoryMethods,
      personaMethods,
      providerMethods,
      settingsMethods,
      worldMethods,
    ]
    const names = parts.flatMap((p) => Object.keys(p))
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
  })
})
