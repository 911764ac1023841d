import { describe, expect, it } from 'vitest'
import { appSchema } from '../appSchema'
import { previousReleaseSteps } from '../../tests/support/previousRelease/previousReleaseSteps'
import { migrateDomains } from '../db/domainMigrations'
import { openDatabase } from '../db/open'
import { GraphStore } from './graphStore'

describe('a flow cast (migration 0035)', () => {
  it('gives the flows and nodes of an older database no cast, the addressed order and no speaker', () => {
    const before = previousReleaseSteps(appSchema).findIndex((m) => m.name === 'add-flow-cast')
    const { db } = openDatabase(':memory:', { migrations: previousReleaseSteps(appSchema).slice(0, before), label: 'loomverse.db' })
    db.prepare(
      `INSERT INTO flows (id, name, persona_id, created, updated) VALUES ('f', 'old', 'p', 'now', 'now')`,
    ).run()
    db.prepare(`INSERT INTO nodes (id, timestamp, prompt, response) VALUES ('n', 'now', 'hi', 'hello')`).run()
    migrateDomains(db, appSchema, 'loomverse.db')

    const store = new GraphStore(db)
    const flow = store.flow('f')!
    expect(flow.cast).toBeUndefined()
    expect(flow.turn_order).toBeUndefined()
    expect(store.node('n')!.metadata.speaker_id).toBeUndefined()

    store.updateFlow(
      'f',
      {
        cast_json: JSON.stringify([
          { persona_id: 'p', muted: false },
          { persona_id: 'q', muted: true },
        ]),
      },
      'now',
    )
    store.setReply('n', { status: 'complete', speaker_id: 'q' })
    expect(store.flow('f')).toMatchObject({
      cast: [
        { persona_id: 'p', muted: false },
        { persona_id: 'q', muted: true },
      ],
      turn_order: 'addressed',
    })
    expect(store.node('n')!.metadata.speaker_id).toBe('q')
    // A reply written again without a speaker keeps the one it has.
    store.setReply('n', { status: 'complete', response: 'hello again' })
    expect(store.node('n')!.metadata.speaker_id).toBe('q')
    expect(() => store.updateFlow('f', { turn_order: 'loudest' as 'manual' }, 'now')).toThrow(/CHECK/)
  })
})
