import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
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

/** Every production file below `dir` and the files it imports (types too), by path below `dir`. */
function fileImports(dir = mainDir): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>()
  const file = (base: string) =>
    [`${base}.ts`, `${base}.tsx`, `${base}.d.ts`, join(base, 'index.ts')].find(
      (f) => existsSync(f) && statSync(f).isFile(),
    )
  for (const from of productionFiles(dir)) {
    const targets = new Set<string>()
    edges.set(relative(dir, from), targets)
    for (const m of readFileSync(from, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const to = file(resolve(dirname(from), m[1]!))
      if (to?.startsWith(dir + sep)) targets.add(relative(dir, to))
    }
  }
  return edges
}

/**
 * Imports that break a domain's rooms (main/layers.json `rooms`): a file in a room importing a
 * room listed after its own, or the domain's top-level modules.
 */
function roomViolations(edges: Map<string, Set<string>>, rooms: Record<string, string[]>): string[] {
  const place = (path: string) => {
    const [domain, room, ...rest] = path.split('/')
    const order = rooms[domain!]
    // A domain's migrations are no room: they are run by the kernel, not imported by its code.
    if (!order || (rest.length > 0 && !order.includes(room!))) return null
    return {
      domain: domain!,
      room: rest.length > 0 ? room! : null,
      rank: rest.length > 0 ? order.indexOf(room!) : Infinity,
    }
  }
  const found: string[] = []
  for (const [from, targets] of edges) {
    const a = place(from)
    if (!a || a.room === null) continue
    for (const to of targets) {
      const b = place(to)
      if (!b || b.domain !== a.domain || b.room === a.room) continue
      if (b.rank >= a.rank) found.push(`${from} → ${to}`)
    }
  }
  return found
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

  it('has no cycle between files, inside a folder or across folders, types included', () => {
    const edges = fileImports()
    expect(edges.size).toBeGreaterThan(200)
    expect(cycles(edges)).toEqual([])
  })

  it("keeps each domain's rooms in their order (main/layers.json rooms)", () => {
    const { $comment: _, ...rooms } = layers.rooms as Record<string, string[]>
    expect(roomViolations(fileImports(), rooms)).toEqual([])
    // Every folder of a domain with rooms is one of them (its migrations aside).
    for (const [domain, order] of Object.entries(rooms)) {
      const folders = readdirSync(join(mainDir, domain)).filter(
        (f) => f !== 'migrations' && statSync(join(mainDir, domain, f)).isDirectory(),
      )
      expect(folders.filter((f) => !order.includes(f))).toEqual([])
    }
  })

  it("finds a room importing one above it, or its domain's top level (the check can fail)", () => {
    const edges = new Map([
      ['memory/pack/packBuilder.ts', new Set(['memory/retrieval/ranker.ts', 'memory/store/store.ts'])],
      ['memory/store/store.ts', new Set(['memory/pack/packBuilder.ts', 'memory/memory.ts', 'kernel/tokens.ts'])],
      ['memory/memory.ts', new Set(['memory/pack/packBuilder.ts'])],
    ])
    expect(roomViolations(edges, { memory: ['store', 'retrieval', 'pack'] })).toEqual([
      'memory/store/store.ts → memory/pack/packBuilder.ts',
      'memory/store/store.ts → memory/memory.ts',
    ])
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

  it('has no cycle between files, types included (each slice declares its state apart from its code)', () => {
    const edges = fileImports(rendererDir)
    expect(edges.size).toBeGreaterThan(100)
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
