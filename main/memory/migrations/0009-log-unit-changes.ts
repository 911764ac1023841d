import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * unit_changes: every unit added, changed (state, pin, salience, sensitivity, a new version…)
 * or deleted appends its id (triggers, so the memory worker's writes are seen). The MemoryPack
 * keeps the unit rows it has read (unitRows.ts) and forgets only those logged here: a pack
 * reads a few hundred rows, and reading them each time was a seventh of its time at 10k units.
 */
export function migrate(db: Database): void {
  db.exec(`
    create table if not exists unit_changes (
      seq     integer primary key autoincrement,
      unit_id integer not null
    );
    create trigger if not exists units_log_insert after insert on units begin
      insert into unit_changes (unit_id) values (new.id);
    end;
    create trigger if not exists units_log_update after update on units begin
      insert into unit_changes (unit_id) values (old.id);
      insert into unit_changes (unit_id) select new.id where new.id <> old.id;
    end;
    create trigger if not exists units_log_delete after delete on units begin
      insert into unit_changes (unit_id) values (old.id);
    end;
  `)
}

export const step: MigrationStep = { name: 'log-unit-changes', up: migrate }
