import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startCore, type Core } from '../../main/core'
import { useTempHome } from '../support/tempHome'
import { attemptHostile, casePath, misjudged } from './hostileImportRun'
import { SECRET_CANARY, hostileCases, hostilePlace } from './hostileImports'

// Every hostile import is refused with its file and line (or, a damaged ChatGPT conversation,
// skipped with its reason), lets nothing in, and leaves every database byte for byte as it
// was. VizPrompt folders go through the import the command line runs; memory chat logs
// through the router, as a window (WebSocket) or the command line (internal) calls
// memory_import; ChatGPT exports and cards as a window calls their methods.

const home = useTempHome()

/** A digest of every database file of the home (main and memory, with their WAL files). */
function databases(core: Core): string {
  const hash = createHash('sha256')
  const files = [core.paths.db, ...listed(core.paths.memory)]
  for (const file of files) {
    for (const path of [file, `${file}-wal`]) {
      hash.update(path)
      hash.update(existsSync(path) ? readFileSync(path) : 'absent')
    }
  }
  return hash.digest('hex')
}

function listed(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.db'))
    .map((name) => join(dir, name))
}

describe('hostile imports', () => {
  it('refuses every case with its file and line; no database changes', async () => {
    const dir = home()
    const core = startCore({ home: join(dir, 'home'), mode: 'browser', log: () => {} })
    try {
      // Something in each database to keep: a node, and a memory imported the allowed way.
      const flow = core.graph.createFlow({ name: 'kept' })
      core.graph.createNode({ flow_id: flow.id, prompt: 'kept prompt', response: 'kept reply' })
      const persona = await core.router.call('create_persona', { name: 'Aoi' }, { transport: 'internal' })
      if (!persona.ok) throw new Error(persona.error.message)
      const personaId = (persona.value as { id: string }).id
      const imports = core.paths.imports
      const place0 = hostilePlace(join(dir, 'setup'), imports)
      const ok = JSON.stringify({ id: 'ok', speaker: 'Aoi', text: 'kept memory', time: 1_700_000_000 })
      writeFileSync(join(place0.imports, 'ok.jsonl'), ok)
      const first = await core.router.call(
        'memory_import',
        { persona_id: personaId, path: 'ok.jsonl', no_llm: true },
        { transport: 'ws' },
      )
      expect(first).toMatchObject({ ok: true, value: { imported: 1 } })

      const outcomes: string[] = []
      for (const [i, c] of hostileCases.filter((c) => c.available).entries()) {
        const place = hostilePlace(join(dir, `case-${i}`), join(imports, `case-${i}`))
        const input = c.build(place)
        const before = databases(core)
        const outcome = await attemptHostile(core, personaId, c, casePath(c, i, input.path))
        outcomes.push(c.name)
        expect(misjudged(input, casePath(c, i, input.file), outcome), c.name).toBeNull()
        const message = outcome.refusal ?? ''
        expect(message, c.name).not.toContain(SECRET_CANARY)
        expect(message.length, c.name).toBeLessThan(1000)
        expect(databases(core), c.name).toBe(before)
      }
      expect(outcomes.length).toBeGreaterThanOrEqual(20)
    } finally {
      await core.dispose()
    }
  }, 180_000)
})
