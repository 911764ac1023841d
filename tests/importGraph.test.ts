import { readdirSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { productionFiles } from './support/productionFiles'
// @ts-expect-error a plain ES module shared with eslint.config.js
import { layers, rendererLayers, rendererUnitOf } from '../scripts/eslintLayers.mjs'

const mainDir = resolve(import.meta.dirname, '../main')
const rendererDir = resolve(import.meta.dirname, '../renderer/src')

/**
 * Every production file under `dir` and the units it imports: for main/ its folders (or
 * top-level files), for renderer/src its folders with each feature on its own.
 */
function folderImports(
  dir = mainDir,
  unit = (file: string) => relative(mainDir, file).split(sep)[0]!,
): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>()
  for (const file of productionFiles(dir)) {
    const from = unit(file)
    const targets = edges.get(from) ?? new Set<string>()
    edges.set(from, targets)
    const source = readFileSync(file, 'utf8')
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), m[1]!)
      if (!target.startsWith(dir + sep)) continue
      const to = unit(target)
      if (to !== from) targets.add(to)
    }
  }
  return edges
}

/** The strongly connected groups of more than one folder (Tarjan): each is an import cycle. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0
  const stack: string[] = []
  const seen = new Map<string, { index: number; low: number; onStack: boolean }>()
  const found: string[][] = []
  const visit = (v: string): void => {
    const s = { index, low: index, onStack: true }
    index++
    seen.set(v, s)
    stack.push(v)
    for (const w of edges.get(v) ?? []) {
      const t = seen.get(w)
      if (!t) {
        visit(w)
        s.low = Math.min(s.low, seen.get(w)!.low)
      } else if (t.onStack) s.low = Math.min(s.low, t.index)
    }
    if (s.low === s.index) {
      const group: string[] = []
      let w: string
      do {
        w = stack.pop()!
        seen.get(w)!.onStack = false
        group.push(w)
      } while (w !== v)
      if (group.length > 1) found.push(group.sort())
    }
  }
  for (const v of edges.keys()) if (!seen.has(v)) visit(v)
  return found
}

describe('the import graph of main/', () => {
  it('has no cycle between folders', () => {
    const edges = folderImports()
    expect(edges.size).toBeGreaterThan(10)
    expect(cycles(edges)).toEqual([])
  })

  it('finds a cycle when there is one (the check can fail)', () => {
    const edges = new Map([
      ['graph', new Set(['chat'])],
      ['chat', new Set(['memory'])],
      ['memory', new Set(['graph'])],
      ['kernel', new Set<string>()],
    ])
    expect(cycles(edges)).toEqual([['chat', 'graph', 'memory']])
  })

  it('names every folder of main/ in a floor of main/layers.json', () => {
    const named = new Set([...Object.keys(layers.kernel), ...Object.keys(layers.domains), ...layers.roots])
    const folders = readdirSync(mainDir).filter((f) => !f.endsWith('.json') && !f.endsWith('.test.ts'))
    expect(folders.filter((f) => !named.has(f))).toEqual([])
  })
})

describe('the import graph of renderer/src', () => {
  const rendererImports = () => folderImports(rendererDir, rendererUnitOf)

  it('has no cycle between its folders and features', () => {
    const edges = rendererImports()
    expect(edges.size).toBeGreaterThan(10)
    expect(cycles(edges)).toEqual([])
  })

  it('has no import from one feature into another', () => {
    const crossing = [...rendererImports()].flatMap(([from, targets]) =>
      from.startsWith('features/')
        ? [...targets].filter((to) => to.startsWith('features/')).map((to) => `${from} → ${to}`)
        : [],
    )
    expect(crossing).toEqual([])
  })

  it('names every folder of renderer/src in renderer/src/layers.json', () => {
    const named = new Set([...Object.keys(rendererLayers.floors), ...rendererLayers.entry])
    const folders = readdirSync(rendererDir).filter((f) => f !== 'layers.json' && !f.endsWith('.test.ts'))
    expect(folders.filter((f) => !named.has(f))).toEqual([])
  })
})
