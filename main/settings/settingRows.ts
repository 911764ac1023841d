import type { Db } from '../db/open'

// The settings table holds one JSON value per key: the app's preferences, each provider's
// address (`provider:<id>`). One place reads and writes a row, whichever service owns the key.

export function readSetting(db: Db, key: string): unknown {
  const row = db.prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined
  return row ? (JSON.parse(row.value_json) as unknown) : undefined
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  db.prepare(
    `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  ).run(key, JSON.stringify(value), Math.floor(Date.now() / 1000))
}

export function deleteSetting(db: Db, key: string): void {
  db.prepare('DELETE FROM settings WHERE key = ?').run(key)
}
