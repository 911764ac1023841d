import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openMemory } from '../store/db'
import { importLines } from '../import/importer'
import { FEATURES } from './rankFeatures'
import { ranker } from './ranker'
import { buildPack } from '../pack/packBuilder'
import type { MemoryStore } from '../store/store'

// What the learned ranker reads of each find: one value per named feature, each meaning what
// its name says. A value out of place would be weighed as another feature, silently.

let store: MemoryStore | null = null
let dir = ''
afterEach(() => {
  store?.db.close()
  rmSync(dir, { recursive: true, force: true })
})

it('gives every find one value per feature, read as the feature names say', () => {
  dir = mkdtempSync(join(tmpdir(), 'loomverse-features-'))
  store = openMemory(join(dir, 'memory_p1.db'))
  const turns = [
    ['Caroline', 'Did you go to the pottery class in the morning?'],
    ['Melanie', 'Yes, the pottery class was lovely, I made a bowl.'],
    ['Caroline', 'Nice! I stayed home with the cat.'],
  ]
  const may = Date.UTC(2023, 4, 8) / 1000
  importLines(
    store,
    turns
      .map(([speaker, text], i) => JSON.stringify({ id: `t${i + 1}`, speaker, text, time: may + i * 60 }))
      .join('\n'),
  )
  let found: ReadonlyMap<number, readonly number[]> = new Map()
  const pack = buildPack(store, {
    query: 'What did Melanie make at the pottery class?',
    budget: 500,
    path: null,
    onFeatures: (byUnit) => (found = byUnit),
  })
  const byRef = new Map(
    pack.sections.flatMap((s) => s.items.map((i) => [i.refs[0]!.id, found.get(i.unit_id)!] as const)),
  )
  expect(ranker.features).toEqual(FEATURES)
  for (const values of found.values()) expect(values).toHaveLength(FEATURES.length)
  const feature = (ref: string, name: (typeof FEATURES)[number]) => byRef.get(ref)![FEATURES.indexOf(name)]
  expect(feature('t2', 'spoken_by_named')).toBe(1)
  expect(feature('t1', 'spoken_by_other')).toBe(1)
  expect(feature('t1', 'asks')).toBe(1)
  expect(feature('t2', 'asks')).toBe(0)
  // t2 holds "melanie" (its speaker, in its text), "pottery" and "class"; t1 only the last two;
  // t3 none of the query's words, and came only as t2's neighbour.
  expect(feature('t2', 'words_covered')).toBeGreaterThan(feature('t1', 'words_covered')!)
  expect(feature('t3', 'neighbour')).toBe(1)
  expect(feature('t3', 'words_covered')).toBe(0)
  expect(feature('t2', 'query_names')).toBe(1)
  // t2 answers t1, which asked and was found; t1 follows no found turn.
  expect(feature('t2', 'previous_asks_score')).toBeGreaterThan(0)
  expect(feature('t2', 'previous_asks_score')).toBe(feature('t2', 'previous_score'))
  expect(feature('t1', 'previous_score')).toBe(0)
  expect(feature('t1', 'next_score')).toBe(feature('t2', 'fused_score'))
  // t2 holds no question mark: the turn after it gets its score, not as an asking turn's.
  expect(feature('t3', 'previous_score')).toBe(feature('t2', 'fused_score'))
  expect(feature('t3', 'previous_asks_score')).toBe(0)
})
