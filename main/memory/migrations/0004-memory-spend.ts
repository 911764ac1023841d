import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'

/**
 * What memory jobs spend and whether they may spend more (memoryBreaker.ts):
 * - llm_usage: calls and tokens of the lightweight model per local day and model, so the
 *   memory panel can show today's cost and a daily token budget can be kept;
 * - memory_control: one row: who paused memory jobs (the user, or the circuit breaker after
 *   repeated failures of the model), why, with which model; the consecutive failures counted
 *   so far; the optional daily token budget.
 */
export function migrate(db: Database): void {
  db.exec(`
    create table llm_usage (
      day               text    not null,
      model             text    not null,
      calls             integer not null default 0,
      prompt_tokens     integer not null default 0,
      completion_tokens integer not null default 0,
      primary key (day, model)
    ) strict;
    create table memory_control (
      id                 integer primary key check (id = 1),
      paused_by          text check (paused_by in ('user', 'breaker')),
      paused_reason      text,
      paused_model       text,
      paused_at          integer,
      failures           integer not null default 0,
      daily_token_budget integer check (daily_token_budget > 0)
    ) strict;
    insert into memory_control (id) values (1);
  `)
}

export const step: MigrationStep = { name: 'memory-spend', up: migrate }
