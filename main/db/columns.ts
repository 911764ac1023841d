import type { Database } from 'better-sqlite3'

/**
 * Adds a column unless the table has it already, as the seeds' own migrations do: a database
 * touched by an older tool or a half-finished upgrade still upgrades in place.
 */
export function addColumnOnce(db: Database, table: string, column: string, type: string): void {
  const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>
  if (columns.some((c) => c.name.toLowerCase() === column.toLowerCase())) return
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table + column) || !/^[A-Z ]+$/.test(type))
    throw new Error(`bad column spec ${table}.${column} ${type}`)
  db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`)
}
