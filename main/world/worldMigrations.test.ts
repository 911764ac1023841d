import { describe, expect, it } from 'vitest'
import { appSchema } from '../appSchema'
import { previousReleaseSteps } from '../../tests/support/previousRelease/previousReleaseSteps'
import { migrateDomains } from '../db/domainMigrations'
import { openDatabase } from '../db/open'

const columns = (db: ReturnType<typeof openDatabase>['db'], table: string) =>
  (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map((c) => c.name)

describe('the world’s migration steps', () => {
  it('upgrades a database from before the world in place, keeping its personas', () => {
    const { db } = openDatabase(':memory:', { migrations: previousReleaseSteps(appSchema).slice(0, 7), label: 'loomverse.db' })
    db.prepare(
      "INSERT INTO ai (AIID, AINAME, CREATED_AT, UPDATED_AT, LIGHTWEIGHT_VISION_MODEL) VALUES ('a1', 'Aoi', 't', 't', 'openai:x')",
    ).run()
    expect(columns(db, 'ai')).not.toContain('CURRENT_BUILDING_ID')
    const report = migrateDomains(db, appSchema, 'loomverse.db')
    expect(report.applied).toEqual(expect.arrayContaining(['world/0001-create-world', 'world/0002-add-item-file-path']))
    expect(columns(db, 'ai')).toContain('CURRENT_BUILDING_ID')
    expect(columns(db, 'item')).toEqual(expect.arrayContaining(['FILE_PATH', 'SUMMARY_STATUS', 'STATE_JSON', 'TYPE']))
    expect(db.prepare('SELECT AINAME, CURRENT_BUILDING_ID, LIGHTWEIGHT_VISION_MODEL FROM ai').get()).toEqual({
      AINAME: 'Aoi',
      CURRENT_BUILDING_ID: null,
      LIGHTWEIGHT_VISION_MODEL: 'openai:x',
    })
  })

  it('keeps object items from before FILE_PATH, and tolerates a column an older tool already added', () => {
    const { db } = openDatabase(':memory:', { migrations: previousReleaseSteps(appSchema).slice(0, 8), label: 'loomverse.db' })
    db.prepare(
      "INSERT INTO item (ITEM_ID, TYPE, NAME, CREATED_AT, UPDATED_AT) VALUES ('i1', 'object', 'Lamp', 't', 't')",
    ).run()
    // SAIVerse's own migrate.py may have run first: the step must not fail on "duplicate column".
    db.exec('ALTER TABLE item ADD COLUMN FILE_PATH TEXT')
    migrateDomains(db, appSchema, 'loomverse.db')
    expect(db.prepare('SELECT NAME, FILE_PATH, SUMMARY_STATUS FROM item').get()).toEqual({
      NAME: 'Lamp',
      FILE_PATH: null,
      SUMMARY_STATUS: 'ready',
    })
  })
})
