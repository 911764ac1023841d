import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

/** The window's size and place, remembered between runs (window-state.json in the user-data folder). */
const WindowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean().default(false),
})
export type WindowState = z.infer<typeof WindowStateSchema>

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_SIZE = { width: 1280, height: 820 }
const FILE = 'window-state.json'

/** The saved state, or null when there is none or it is unreadable (then the default size, centred). */
export function loadWindowState(dir: string): WindowState | null {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(join(dir, FILE), 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function saveWindowState(dir: string, state: WindowState): void {
  writeFileSync(join(dir, FILE), JSON.stringify(state))
}

/**
 * Where to open the window: the saved bounds when at least a title bar's worth of them lies on
 * a display that is connected now (a monitor may have been unplugged), shrunk to fit it; else
 * the default size with no position (Electron centres it).
 */
export function placeWindow(saved: WindowState | null, workAreas: Rect[]): Partial<Rect> & { maximized: boolean } {
  if (!saved) return { ...DEFAULT_SIZE, maximized: false }
  const area = workAreas.find((a) => overlap(saved, a) >= 48 * 48)
  if (!area) return { width: saved.width, height: saved.height, maximized: saved.maximized }
  const width = Math.min(saved.width, area.width)
  const height = Math.min(saved.height, area.height)
  const x = clamp(saved.x, area.x, area.x + area.width - width)
  const y = clamp(saved.y, area.y, area.y + area.height - height)
  return { x, y, width, height, maximized: saved.maximized }
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? w * h : 0
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max))
}
