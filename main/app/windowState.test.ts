import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_SIZE, loadWindowState, placeWindow, saveWindowState } from './windowState'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'loomverse-window-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const screen = { x: 0, y: 0, width: 1920, height: 1080 }

describe('window size and position', () => {
  it('are remembered between runs', () => {
    const dir = tempDir()
    saveWindowState(dir, { x: 100, y: 50, width: 1000, height: 700, maximized: true })
    expect(loadWindowState(dir)).toEqual({ x: 100, y: 50, width: 1000, height: 700, maximized: true })
  })

  it('fall back to the default when the file is missing, broken or malformed', () => {
    const dir = tempDir()
    expect(loadWindowState(dir)).toBeNull()
    writeFileSync(join(dir, 'window-state.json'), '{not json')
    expect(loadWindowState(dir)).toBeNull()
    writeFileSync(join(dir, 'window-state.json'), JSON.stringify({ x: 1, y: 1, width: -5, height: 10 }))
    expect(loadWindowState(dir)).toBeNull()
    expect(placeWindow(null, [screen])).toEqual({ ...DEFAULT_SIZE, maximized: false })
  })

  it('keep the saved place on a connected display, shrunk to fit it', () => {
    expect(placeWindow({ x: 100, y: 50, width: 1000, height: 700, maximized: false }, [screen])).toEqual({
      x: 100,
      y: 50,
      width: 1000,
      height: 700,
      maximized: false,
    })
    expect(placeWindow({ x: 1800, y: 900, width: 3000, height: 700, maximized: false }, [screen])).toEqual({
      x: 0,
      y: 380,
      width: 1920,
      height: 700,
      maximized: false,
    })
  })

  it('drop the position when its display was unplugged (Electron centres the window)', () => {
    const place = placeWindow({ x: 2500, y: 100, width: 1000, height: 700, maximized: false }, [screen])
    expect(place).toEqual({ width: 1000, height: 700, maximized: false })
  })
})
