import type { SheetVersion, StorySave, StorySummary } from '@shared/contract'
import type { Db } from '../db/open'
import { statements } from '../db/statements'
import type { Statement } from 'better-sqlite3'

export interface StoryRow {
  id: string
  name: string
  flow_id: string
  persona_id: string
  own_persona: 0 | 1
  language: 'ja' | 'en'
  template: 'blank' | 'fantasy' | 'school'
  current_node_id: string | null
  redo_node_id: string | null
  created_at: string
  updated_at: string
}

type SaveRow = Omit<StorySave, 'preview' | 'turn'>

/** The story tables of loomverse.db (migration 20). Used by the main thread and the job worker alike. */
export class StoryStore {
  /** Compiled statements, reused (db/statements.ts). */
  private readonly sql: (sql: string) => Statement

  constructor(private readonly db: Db) {
    this.sql = statements(db)
  }

  insert(row: StoryRow): void {
    this.sql(
      `INSERT INTO stories (id, name, flow_id, persona_id, own_persona, language, template, current_node_id, redo_node_id, created_at, updated_at)
         VALUES (@id, @name, @flow_id, @persona_id, @own_persona, @language, @template, @current_node_id, @redo_node_id, @created_at, @updated_at)`,
    ).run(row)
  }

  get(id: string): StoryRow | null {
    return (this.sql('SELECT * FROM stories WHERE id = ?').get(id) as StoryRow | undefined) ?? null
  }

  byFlow(flowId: string): StoryRow | null {
    return (this.sql('SELECT * FROM stories WHERE flow_id = ?').get(flowId) as StoryRow | undefined) ?? null
  }

  list(): StoryRow[] {
    return this.sql('SELECT * FROM stories ORDER BY updated_at DESC').all() as StoryRow[]
  }

  setPosition(id: string, position: { current: string | null; redo: string | null }, now: string): void {
    this.sql('UPDATE stories SET current_node_id = ?, redo_node_id = ?, updated_at = ? WHERE id = ?').run(
      position.current,
      position.redo,
      now,
      id,
    )
  }

  setFlow(id: string, flowId: string, now: string): void {
    this.sql('UPDATE stories SET flow_id = ?, updated_at = ? WHERE id = ?').run(flowId, now, id)
  }

  // ---- summaries: each belongs to the node where it was made

  addSummary(s: Omit<StorySummary, 'id'>): StorySummary {
    const id = this.sql(
      `INSERT INTO story_summaries (story_id, node_id, covered_node_id, turns, path_turns, text, created_at)
         VALUES (@story_id, @node_id, @covered_node_id, @turns, @path_turns, @text, @created_at)`,
    ).run(s).lastInsertRowid
    return { ...s, id: Number(id) }
  }

  /** The newest summary made at any of these nodes (a path), or null. */
  summaryAmong(storyId: string, nodeIds: readonly string[]): StorySummary | null {
    if (nodeIds.length === 0) return null
    // One indexed probe per node would cost 5,000 probes on a long path: read the story's few summaries instead.
    const rows = this.sql('SELECT * FROM story_summaries WHERE story_id = ? ORDER BY turns DESC, id DESC').all(
      storyId,
    ) as StorySummary[]
    if (rows.length === 0) return null
    const onPath = new Set(nodeIds)
    return rows.find((r) => onPath.has(r.node_id)) ?? null
  }

  summaries(storyId: string): StorySummary[] {
    return this.sql('SELECT * FROM story_summaries WHERE story_id = ? ORDER BY id').all(storyId) as StorySummary[]
  }

  copySummary(to: string, s: StorySummary): void {
    this.addSummary({ ...s, story_id: to })
  }

  // ---- saves

  addSave(s: Omit<SaveRow, 'id'>): SaveRow {
    const id = this.sql(
      'INSERT INTO story_saves (story_id, node_id, name, created_at) VALUES (@story_id, @node_id, @name, @created_at)',
    ).run(s).lastInsertRowid
    return { ...s, id: Number(id) }
  }

  saves(storyId: string): SaveRow[] {
    return this.sql('SELECT * FROM story_saves WHERE story_id = ? ORDER BY id DESC').all(storyId) as SaveRow[]
  }

  save(storyId: string, id: number): SaveRow | null {
    return (
      (this.sql('SELECT * FROM story_saves WHERE story_id = ? AND id = ?').get(storyId, id) as SaveRow | undefined) ??
      null
    )
  }

  // ---- character sheet versions

  addVersion(v: Omit<SheetVersion, 'id'>): SheetVersion {
    const id = this.sql(
      `INSERT INTO story_sheet_versions (story_id, path, reason, status, before, after, note, node_id, created_at)
         VALUES (@story_id, @path, @reason, @status, @before, @after, @note, @node_id, @created_at)`,
    ).run(v).lastInsertRowid
    return { ...v, id: Number(id) }
  }

  versions(storyId: string, path?: string): SheetVersion[] {
    return (
      path
        ? this.sql('SELECT * FROM story_sheet_versions WHERE story_id = ? AND path = ? ORDER BY id DESC').all(
            storyId,
            path,
          )
        : this.sql('SELECT * FROM story_sheet_versions WHERE story_id = ? ORDER BY id DESC').all(storyId)
    ) as SheetVersion[]
  }

  version(storyId: string, id: number): SheetVersion | null {
    return (
      (this.sql('SELECT * FROM story_sheet_versions WHERE story_id = ? AND id = ?').get(storyId, id) as
        SheetVersion | undefined) ?? null
    )
  }

  setVersionStatus(id: number, status: SheetVersion['status']): void {
    this.sql('UPDATE story_sheet_versions SET status = ? WHERE id = ?').run(status, id)
  }
}
