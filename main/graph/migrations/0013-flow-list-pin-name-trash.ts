import type { Database } from 'better-sqlite3'
import type { DomainStep } from '../../db/domainMigrations'
import { nameFromPrompt } from '@shared/conversationName'

/** What the app called a conversation before names came from the first prompt (en, ja). */
const OLD_DEFAULT_NAMES = ['New conversation', '新しい会話']

/**
 * What the conversation list needs of a flow beyond its name:
 * - `pinned`: kept at the top of the list;
 * - `name_source`: where the name came from. `placeholder` is replaced by a name made from the
 *   first prompt (`prompt`); a name the user gave (`user`, also every name an import or a
 *   script chose) is never replaced;
 * - `deleted`: when the user deleted it from the list. It stays, hidden, for the Undo on the
 *   toast, and is removed for good once that time has passed (GraphService.purgeDeleted);
 * - `node_count` and `last_activity` (the newest timestamp of a node that joined it), kept by
 *   triggers so a write from any connection counts: the list is read after every turn, and
 *   counting members and finding their newest node took ~250 ms at 1,000 flows of 50 nodes
 *   (~1,400 ms at 200 nodes each) where reading the columns takes about a millisecond. A node
 *   leaving does not move `last_activity` back: deleting is activity too, and finding the
 *   next newest on every delete would make deleting a large subtree quadratic.
 * Flows still called by the app's old default name are named from their first prompt here,
 * or marked as placeholders when they have none yet.
 */
export function migrate(db: Database): void {
  db.exec(`
    ALTER TABLE flows ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));
    ALTER TABLE flows ADD COLUMN name_source TEXT NOT NULL DEFAULT 'user'
      CHECK (name_source IN ('placeholder', 'prompt', 'user'));
    ALTER TABLE flows ADD COLUMN deleted TEXT;
    ALTER TABLE flows ADD COLUMN node_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE flows ADD COLUMN last_activity TEXT;

    UPDATE flows SET
      node_count = (SELECT count(*) FROM flow_nodes m WHERE m.flow_id = flows.id),
      last_activity = (SELECT max(n.timestamp) FROM flow_nodes m JOIN nodes n ON n.id = m.node_id
                        WHERE m.flow_id = flows.id);

    CREATE TRIGGER flow_nodes_list_insert AFTER INSERT ON flow_nodes BEGIN
      UPDATE flows SET node_count = node_count + 1,
        last_activity = max(coalesce(last_activity, ''), coalesce((SELECT timestamp FROM nodes WHERE id = new.node_id), ''))
       WHERE id = new.flow_id;
    END;
    CREATE TRIGGER flow_nodes_list_delete AFTER DELETE ON flow_nodes BEGIN
      UPDATE flows SET node_count = node_count - 1 WHERE id = old.flow_id;
    END;
    CREATE TRIGGER flow_nodes_list_move AFTER UPDATE OF flow_id ON flow_nodes BEGIN
      UPDATE flows SET node_count = node_count - 1 WHERE id = old.flow_id;
      UPDATE flows SET node_count = node_count + 1 WHERE id = new.flow_id;
    END;
    CREATE TRIGGER nodes_list_timestamp AFTER UPDATE OF timestamp ON nodes BEGIN
      UPDATE flows SET last_activity = max(coalesce(last_activity, ''), new.timestamp)
       WHERE id IN (SELECT flow_id FROM flow_nodes WHERE node_id = new.id);
    END;
  `)
  const unnamed = db
    .prepare(`SELECT id FROM flows WHERE name IN (${OLD_DEFAULT_NAMES.map(() => '?').join(', ')})`)
    .pluck()
    .all(...OLD_DEFAULT_NAMES) as string[]
  const firstPrompts = db
    .prepare(
      `SELECT n.prompt FROM flow_nodes m JOIN nodes n ON n.id = m.node_id
        WHERE m.flow_id = ? AND trim(n.prompt) <> '' ORDER BY m.idx`,
    )
    .pluck()
  const rename = db.prepare(`UPDATE flows SET name = ?, name_source = 'prompt' WHERE id = ?`)
  const placeholder = db.prepare(`UPDATE flows SET name_source = 'placeholder' WHERE id = ?`)
  for (const id of unnamed) {
    let name: string | null = null
    for (const prompt of firstPrompts.iterate(id) as IterableIterator<string>) {
      name = nameFromPrompt(prompt)
      if (name) break
    }
    if (name) rename.run(name, id)
    else placeholder.run(id)
  }
}

export const step: DomainStep = { name: 'flow-list-pin-name-trash', legacy: 30, up: migrate }
