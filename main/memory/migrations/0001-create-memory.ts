import type { Database } from 'better-sqlite3'
import type { MigrationStep } from '../../db/migrate'
import { EMBEDDING_DIMENSIONS } from '../store/embedder'

/**
 * Seed 002's schema, table for table and index for index (times in UTC epoch seconds),
 * plus what Loomverse needs on top, each marked below:
 * - units: where a unit came from (flow node, imported message id), user promotion to every
 *   branch, the current version number and the text's token count;
 * - unit_versions.payload_json: the payload as it was, so an edit never loses the old one;
 * - unit_evidence: the episodes a derived unit rests on (branch-aware memory checks them);
 * - jobs: the lease, batch and dedupe columns the JobQueue uses (as loomverse.db's jobs);
 * - units_fts (FTS5 trigram), vec_units (sqlite-vec), memory_packs (what was injected per node).
 */
export function migrate(db: Database): void {
  db.exec(`
    create table units (
      id            integer primary key,
      kind          integer not null,
      occurred_at   integer,
      created_at    integer not null,
      updated_at    integer not null,

      source        text,
      state         integer not null default 0,
      confidence    real    not null default 0.5,
      salience      real    not null default 0.0,
      sensitivity   integer not null default 0,
      pin           integer not null default 0,

      topic_tags    text,
      emotion_label text,
      emotion_intensity real,

      -- Loomverse additions
      origin_node_id text,
      origin_flow_id text,
      external_ref   text,
      is_global      integer not null default 0,
      version        integer not null default 1,
      tokens         integer not null default 0
    );
    create index idx_units_kind_created on units(kind, created_at);
    create index idx_units_occurred on units(occurred_at);
    create index idx_units_state on units(state);
    create index idx_units_origin_node on units(origin_node_id);
    create unique index idx_units_external_ref on units(source, external_ref) where external_ref is not null;

    create table entities (
      id           integer primary key,
      etype        integer not null,
      name         text not null,
      normalized   text,
      created_at   integer not null,
      updated_at   integer not null
    );
    create index idx_entities_type_name on entities(etype, name);

    create table entity_aliases (
      entity_id    integer not null references entities(id) on delete cascade,
      alias        text not null,
      primary key(entity_id, alias)
    );
    create index idx_entity_aliases_alias on entity_aliases(alias);

    create table unit_entities (
      unit_id      integer not null references units(id) on delete cascade,
      entity_id    integer not null references entities(id) on delete cascade,
      role         integer not null,
      weight       real    not null default 1.0,
      primary key(unit_id, entity_id, role)
    );
    create index idx_unit_entities_entity on unit_entities(entity_id);

    create table edges (
      src_entity_id    integer not null references entities(id) on delete cascade,
      rel_type         integer not null,
      dst_entity_id    integer not null references entities(id) on delete cascade,
      weight           real    not null default 1.0,
      first_seen_at    integer,
      last_seen_at     integer,
      evidence_unit_id integer references units(id),
      primary key(src_entity_id, rel_type, dst_entity_id)
    );
    create index idx_edges_src on edges(src_entity_id);
    create index idx_edges_dst on edges(dst_entity_id);

    create table unit_versions (
      unit_id        integer not null references units(id) on delete cascade,
      version        integer not null,
      parent_version integer,
      patch_reason   text,
      payload_hash   text,
      created_at     integer not null,
      -- Loomverse addition: the payload and metadata as they were at this version
      payload_json   text,
      primary key(unit_id, version)
    );

    create table payload_episode (
      unit_id         integer primary key references units(id) on delete cascade,
      user_text       text,
      reply_text      text,
      image_summary   text,
      context_note    text,
      reflection_json text
    );

    create table payload_fact (
      unit_id               integer primary key references units(id) on delete cascade,
      subject_entity_id     integer references entities(id),
      predicate             text not null,
      object_text           text,
      object_entity_id      integer references entities(id),
      valid_from            integer,
      valid_to              integer,
      evidence_unit_ids_json text not null
    );
    create index idx_fact_subject_pred on payload_fact(subject_entity_id, predicate);

    create table payload_summary (
      unit_id      integer primary key references units(id) on delete cascade,
      scope_type   integer not null,
      scope_key    text not null,
      range_start  integer,
      range_end    integer,
      summary_text text not null
    );
    create index idx_summary_scope on payload_summary(scope_type, scope_key);

    create table payload_persona (
      unit_id      integer primary key references units(id) on delete cascade,
      persona_text text not null,
      is_active    integer not null default 1
    );

    create table payload_contract (
      unit_id       integer primary key references units(id) on delete cascade,
      contract_text text not null,
      is_active     integer not null default 1
    );

    create table payload_capsule (
      unit_id      integer primary key references units(id) on delete cascade,
      expires_at   integer,
      capsule_json text not null
    );

    create table payload_loop (
      unit_id    integer primary key references units(id) on delete cascade,
      status     integer not null,
      due_at     integer,
      loop_text  text not null
    );
    create index idx_loop_status_due on payload_loop(status, due_at);

    create table jobs (
      id          integer primary key,
      kind        text not null,
      payload_json text not null,
      status      integer not null default 0,
      run_after   integer not null,
      tries       integer not null default 0,
      last_error  text,
      created_at  integer not null,
      updated_at  integer not null,
      -- Loomverse additions (as in loomverse.db's jobs): claim lease, progress batch, one live job per key
      lease_until integer,
      batch       text,
      dedupe_key  text
    );
    create index idx_jobs_status_run_after on jobs(status, run_after);
    create index idx_jobs_batch on jobs(batch);
    create unique index jobs_one_live_per_key on jobs(dedupe_key) where status in (0, 1) and dedupe_key is not null;

    -- Loomverse additions
    create table unit_evidence (
      unit_id          integer not null references units(id) on delete cascade,
      evidence_unit_id integer not null references units(id) on delete cascade,
      primary key(unit_id, evidence_unit_id)
    );
    create index idx_unit_evidence_evidence on unit_evidence(evidence_unit_id);

    create virtual table units_fts using fts5(text, tokenize = 'trigram');

    create virtual table vec_units using vec0(
      unit_id integer primary key,
      embedding float[${EMBEDDING_DIMENSIONS}] distance_metric=cosine,
      kind integer partition key,
      state integer,
      sensitivity integer,
      occurred_at integer
    );

    create table memory_packs (
      id            integer primary key,
      node_id       text not null,
      flow_id       text,
      query         text not null,
      budget_tokens integer not null,
      tokens        integer not null,
      pack_json     text not null,
      created_at    integer not null
    );
    create index idx_memory_packs_node on memory_packs(node_id, created_at);
  `)
}

export const step: MigrationStep = { name: 'create-memory', up: migrate }
