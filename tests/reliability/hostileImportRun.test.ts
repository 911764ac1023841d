import { describe, expect, it } from 'vitest'
import { loadHostileImports } from './corpora'
import { runHostileImports } from './hostileImportRun'

const cases = await loadHostileImports()

describe('hostile-import corpus', () => {
  it.skipIf(!cases)(
    'refuses every case with a message naming the file, and changes no database',
    { timeout: 300_000 },
    async () => {
      const r = await runHostileImports(cases!)
      expect(r.cases).toBe(cases!.length)
      expect({ accepted: r.accepted, silent: r.silent, unnamed: r.unnamed, details: r.details }).toEqual({
        accepted: 0,
        silent: 0,
        unnamed: 0,
        details: [],
      })
    },
  )
})
