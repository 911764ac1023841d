import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * external_requests: a notification or meta request (seed 004) stored with the work it asks
 * for, in the same transaction as its placeholder EPISODE, so that "acknowledged" means "will be
 * answered": a restart finds the requests a killed process left unanswered and finishes them.
 * - request_json: what the persona is to answer (the text, source, instruction and payload, the
 *   pictures, the language), kept only until it has answered or given up (a meta request's
 *   words are not memory, see chat/externalReplies.ts);
 * - status: 0 waiting, 1 answering, 2 replied (the reply is in the episode; its External-flow
 *   node `node_id`, named before it is written, may still be missing), 3 done, 4 failed (`last_error` says why);
 * - tries counts the model's failures only (a kill is not one), run_after its back-off.
 * One row per unit: deleting the unit takes its request with it.
 */
export function migrate(db: Database): void {
  db.exec(`
    create table if not exists external_requests (
      unit_id      integer primary key references units(id) on delete cascade,
      type         text    not null,
      request_json text,
      status       integer not null default 0,
      tries        integer not null default 0,
      run_after    integer not null,
      node_id      text,
      last_error   text,
      created_at   integer not null,
      updated_at   integer not null
    );
    create index if not exists idx_external_requests_open on external_requests(status) where status < 3;
  `)
}

export const step: MigrationStep = { name: 'external-requests', up: migrate }
