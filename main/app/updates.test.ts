import { describe, expect, it } from 'vitest'
import { updateReadyNotice, updatesEnabled } from './updates'

describe('updates', () => {
  it('are checked only in a packaged app built with a publish configuration, unless turned off', () => {
    expect(updatesEnabled({ packaged: true, updateConfigPresent: true, env: {} })).toBe(true)
    expect(updatesEnabled({ packaged: false, updateConfigPresent: true, env: {} })).toBe(false)
    expect(updatesEnabled({ packaged: true, updateConfigPresent: false, env: {} })).toBe(false)
    expect(updatesEnabled({ packaged: true, updateConfigPresent: true, env: { LOOMVERSE_UPDATES: '0' } })).toBe(false)
  })

  it('say when a downloaded update will be installed', () => {
    expect(updateReadyNotice('0.2.0').body).toBe('Version 0.2.0 will be installed when you quit Loomverse.')
  })
})
