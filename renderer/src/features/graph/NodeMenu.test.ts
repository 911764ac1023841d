import { describe, expect, it } from 'vitest'
import { placeInside } from './NodeMenu'

describe('a node menu opened near an edge of the window', () => {
  const window = { width: 1280, height: 800 }
  const menu = { width: 220, height: 360 }

  it('opens where it was asked when it fits', () => {
    expect(placeInside({ x: 400, y: 200 }, menu, window)).toEqual({ left: 400, top: 200 })
  })

  it('moves up near the bottom and left near the right edge, keeping a margin', () => {
    expect(placeInside({ x: 1200, y: 700 }, menu, window)).toEqual({ left: 1280 - 220 - 8, top: 800 - 360 - 8 })
  })

  it('never goes above or left of the window, even when taller than it', () => {
    expect(placeInside({ x: 5, y: 100 }, { width: 220, height: 900 }, window)).toEqual({ left: 8, top: 8 })
  })
})
